import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import MatrixTransport
import Testing

/// Everything that talks to the real homeserver, in three chains that run side by side, each chain's suites and
/// tests in order: each test makes its own users and rooms, every rate limit is raised but for a test's own user, and
/// the one test that restarts the homeserver runs alone (`MatrixHomeserverRestartTests`). As one chain they took
/// ten minutes, the longest part of the test run; with every suite side by side, a loaded two-core machine slowed
/// each of them up to tenfold and a join ran past its 30 s. Three chains keep the homeserver's load near what the
/// tests were written for.
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

extension MatrixIntegrationTests {
  @Suite("Matrix: what people read, invites, relays, summaries, encrypted rooms", .serialized) struct PeopleChain {}
  @Suite("Matrix: Element's device policy, answering relays, commands", .serialized) struct PolicyChain {}
  @Suite("Matrix: hostile rooms, resilience, start-up, search, a real encrypting client", .serialized)
  struct HostileChain {}

  // Suites other files extend or refer to, by their names before the chains.
  typealias MatrixAcceptanceTests = PeopleChain.MatrixAcceptanceTests
  typealias ElementPolicy = PolicyChain.ElementPolicy
  typealias MatrixReplyAcceptanceTests = PolicyChain.MatrixReplyAcceptanceTests
  typealias Resilience = HostileChain.Resilience
  typealias HostileUsers = HostileChain.HostileUsers
}
