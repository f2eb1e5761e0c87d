// `JSONValue` (Matrix event content, a transport's settings as written) and the config reader live in ConfigReading,
// below every layer that reads config; re-exported so what reaches them through ChatBridge keeps doing so.
@_exported import ConfigReading
