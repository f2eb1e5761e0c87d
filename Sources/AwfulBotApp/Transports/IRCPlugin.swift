import BotCore
import ChatBridge
import IRCTransport

/// An IRC connection (`IRCTransport`), its settings `IRCTransportConfiguration` read from the config file's own
/// keys (`server: "host:port"`, channels as names or `{"name", "key"}`).
package enum IRCPlugin: TransportPlugin {
  package typealias Configuration = IRCTransportConfiguration

  package static let type = TransportType.irc
  package static let summary = "a nick on an IRC network"
  package static let secretKeys = ["sasl.password", "nickServPassword"]
  package static var liveKeys: Set<String> { IRCTransport.liveKeys }

  package static func make(_ configuration: Configuration, context: TransportBuildContext) throws
    -> any ChatTransport
  {
    try IRCTransport(
      configuration: completed(configuration, context: context),
      stateStore: context.database.map { BotDatabaseStateStore(database: $0, transport: configuration.name) },
      logger: context.logger)
  }

  package static func probe(_ configuration: Configuration, context: TransportBuildContext) async -> CheckResult {
    await IRCProbeCheck.run(completed(configuration, context: context), context: context)
  }

  package static func reconfigure(
    _ transport: any ChatTransport, from previous: Configuration, to next: Configuration,
    context: TransportBuildContext
  ) async throws -> [String] {
    guard let irc = transport as? IRCTransport else { return [] }
    return try await irc.reconfigure(to: completed(next, context: context))
  }

  package static func roleSettings(_ configuration: Configuration) -> TransportRoleSettings {
    .irc(
      admins: configuration.admins, members: configuration.members, channelRoles: configuration.channelRoles,
      channels: configuration.channels.map(\.name))
  }

  package static func rooms(_ configuration: Configuration) -> [String]? { configuration.channels.map(\.name) }

  /// What the application adds to the settings: the CTCP VERSION answer and where the settings are in the config
  /// file (for messages that name a key).
  private static func completed(_ configuration: Configuration, context: TransportBuildContext) -> Configuration {
    var configuration = configuration
    configuration.versionReply = "AwfulBot \(AppInfo.version)"
    configuration.settingsPath = context.settingsPath
    return configuration
  }
}

extension TransportType {
  package static let irc = TransportType(rawValue: "irc")
}
