import Logging

/// Process-wide logging: text lines on standard error at the given level. Called once, by the executable.
package enum LoggingSetup {
  package static func bootstrap(level: String?) {
    let level = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
  }
}
