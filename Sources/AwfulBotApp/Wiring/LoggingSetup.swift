import Logging

/// Process-wide logging on standard error: text lines (default, control characters escaped: `TextLogHandler`) or one
/// JSON object per line, at the given level.
/// Called once, by the executable.
package enum LoggingSetup {
  package static func bootstrap(level: Logger.Level, format: LoggingSettings.Format? = nil) {
    if format == .json {
      LoggingSystem.bootstrap { label in
        var handler = JSONLogHandler(label: label)
        handler.logLevel = level
        return handler
      }
      return
    }
    LoggingSystem.bootstrap { label in
      var handler = TextLogHandler(label: label)
      handler.logLevel = level
      return handler
    }
  }
}
