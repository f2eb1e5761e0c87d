import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import MatrixTransport
import Testing

/// Everything that talks to the real homeserver. Serialized: one test restarts the homeserver, and rate limits are
/// per user but the server is shared.
/// The time limit turns a test that waits forever into a failure that names it, rather than a run that never ends.
@Suite(
  "Matrix transport against Synapse", .serialized, .timeLimit(.minutes(5)),
  .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason))
struct MatrixIntegrationTests {}

extension MatrixBotProcess {
  /// A room `owner` creates with the bot invited, once the bot has joined it.
  func joinedRoom(owner: MatrixHuman, power: [String: Int] = [:], name: String = "test room") async throws -> String {
    let room = try await owner.createRoom(name: name, invite: [transport.configuration.userID], power: power)
    try await waitUntilJoined(room)
    return room
  }
}

extension Array where Element == MatrixEvent {
  /// The bot's own messages.
  func from(_ user: String) -> [MatrixEvent] { filter { $0.sender == user } }
}
