import ForumsClient

/// Facts about the application the executable shows.
package enum AppInfo {
  /// The version shown by `--version`; the same string goes into the forum User-Agent.
  package static let version = AwfulBotVersion.current
}
