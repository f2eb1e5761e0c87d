/// Every transport type the bot has, in the order `setup` and error messages list them: the one list. Loading,
/// `check`, `backup`, reload and the transport factory all reach a transport through its entry here.
package enum TransportPlugins {
  package static let all: [any TransportPlugin.Type] = [
    ConsolePlugin.self, MatrixPlugin.self, IRCPlugin.self, DiscordPlugin.self,
  ]

  /// The plugin for `type`; nil for a type no plugin has.
  package static func named(_ type: String) -> (any TransportPlugin.Type)? {
    all.first { $0.type.rawValue == type }
  }
}
