/// A stand-in for an HTTP failure of the forum (status 500).
struct EngineTestHTTPError: Error, CustomStringConvertible {
  var status: Int
  var description: String { "The forum answered HTTP \(status)." }
}
