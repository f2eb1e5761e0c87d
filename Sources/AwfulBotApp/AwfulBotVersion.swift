/// The bot's version, shown by `--version` and sent in the forum User-Agent.
package enum AwfulBotVersion {
  package static let current = "0.1.0"
}
