import Logging

/// Process-wide logging on standard error: text lines (default) or one JSON object per line, at the given level.
/// Called once, by the executable.
package enum LoggingSetup {
  package static func bootstrap(level: String?, format: String? = nil) {
    let level = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
    if format == "json" {
      LoggingSystem.bootstrap { label in
        var handler = JSONLogHandler(label: label)
        handler.logLevel = level
        return handler
      }
      return
    }
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
  }
}
