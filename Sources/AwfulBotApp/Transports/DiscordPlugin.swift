import BotCore
import ChatBridge
import DiscordTransport

/// Discord channels through their incoming webhooks (`DiscordTransport`, relay only), settings as in
/// `DiscordTransportConfiguration`: `rooms` maps each room's name to its webhook, whose URL is a secret: written as
/// `{"env": "NAME"}`, or left out and taken from `AWFULBOT_<NAME>_ROOMS_<ROOM>_WEBHOOK`.
package enum DiscordPlugin: TransportPlugin {
  package typealias Configuration = DiscordTransportConfiguration

  package static let type = TransportType.discord
  package static let summary = "Discord channels through their webhooks (relay only: no commands)"
  package static var liveKeys: Set<String> { DiscordTransportConfiguration.liveKeys }
  package static let secretKeys = ["rooms.*.webhook"]

  package static func make(_ configuration: Configuration, context: TransportBuildContext) throws
    -> any ChatTransport
  {
    try DiscordTransport(configuration: configuration, logger: context.logger)
  }

  /// Asks Discord for each room's webhook (nothing is posted): one line for them all.
  package static func probe(_ configuration: Configuration, context: TransportBuildContext) async -> CheckResult {
    let check = "transport \(configuration.name) (discord)"
    let results: [CheckResult]
    do {
      results = try await DiscordTransport(configuration: configuration, logger: context.logger).probe()
    } catch {
      return CheckResult(.fail, check, detail: "\(error)")
    }
    let failed = results.filter { $0.outcome == .fail }
    guard failed.isEmpty else {
      return CheckResult(
        .fail, check, detail: failed.map { "\($0.name): \($0.detail)" }.joined(separator: "; "), fix: failed[0].fix)
    }
    return CheckResult(.pass, check, detail: results.map { "\($0.name): \($0.detail)" }.joined(separator: "; "))
  }

  package static func reconfigure(
    _ transport: any ChatTransport, from previous: Configuration, to next: Configuration,
    context: TransportBuildContext
  ) async throws -> [String] {
    guard let discord = transport as? DiscordTransport else { return [] }
    return try discord.reconfigure(to: next)
  }

  /// A webhook hears nobody, so nobody acts through it.
  package static func roleSettings(_ configuration: Configuration) -> TransportRoleSettings {
    .relayOnly(rooms: configuration.rooms.keys.sorted())
  }

  /// The rooms are the webhooks: a room taken off the settings can no longer be sent to, so a reload pauses it.
  package static func rooms(_ configuration: Configuration) -> [String]? { configuration.rooms.keys.sorted() }
}

extension TransportType {
  package static let discord = TransportType(rawValue: "discord")
}
