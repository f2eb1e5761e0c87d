import AwfulBotTestKit
import ChatBridge
import FakeDiscord
import Foundation
import Logging

@testable import DiscordTransport

/// A Discord receiver on loopback with one webhook per room, and a transport configured for them, logging into
/// `logs`. The receiver stops when the test's body returns.
struct DiscordWorld {
  let server: FakeDiscordServer
  let base: String
  /// Room name → webhook URL (with its token).
  let webhooks: [String: String]
  let transport: DiscordTransport
  let logs: LogCapture

  var state: FakeDiscordState { server.state }

  /// The webhook id of `room`.
  func webhookID(_ room: String) -> String {
    let parts = webhooks[room]!.split(separator: "/")
    return String(parts[parts.count - 2])
  }

  /// The token of `room`'s webhook: the secret nothing may show.
  func token(_ room: String) -> String { String(webhooks[room]!.split(separator: "/").last!) }

  static func with(
    rooms: [String] = ["general"], buckets: FakeDiscordState.BucketSettings = .init(limit: 50, window: 1),
    configure: (inout DiscordTransportConfiguration) -> Void = { _ in },
    _ body: (DiscordWorld) async throws -> Void
  ) async throws {
    let server = FakeDiscordServer(state: FakeDiscordState(buckets: buckets))
    let base = try await server.start()
    var webhooks: [String: String] = [:]
    for room in rooms { webhooks[room] = base + (await server.state.addWebhook()) }
    var configuration = DiscordTransportConfiguration(
      name: "discord",
      rooms: webhooks.mapValues { DiscordRoomSettings(webhook: try! DiscordWebhook.parse($0).get()) },
      requestTimeoutSeconds: 5)
    configure(&configuration)
    let logs = LogCapture()
    let transport = try DiscordTransport(configuration: configuration, logger: .capturing(into: logs))
    let world = DiscordWorld(server: server, base: base, webhooks: webhooks, transport: transport, logs: logs)
    do {
      try await body(world)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }
}
