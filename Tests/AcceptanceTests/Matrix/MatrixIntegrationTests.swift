import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import MatrixTransport
import Testing

/// Everything that talks to the real homeserver. The suites in it run side by side, each one's tests in order
/// (`.serialized` on each): each test makes its own users and rooms, every rate limit is raised but for a test's own
/// user, and the one test that restarts the homeserver runs alone (`MatrixHomeserverRestartTests`). Run one after
/// the other they took ten minutes, the longest part of the test run.
/// The time limit turns a test that waits forever into a failure that names it, rather than a run that never ends.
@Suite(
  "Matrix transport against Synapse", .timeLimit(.minutes(5)),
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
