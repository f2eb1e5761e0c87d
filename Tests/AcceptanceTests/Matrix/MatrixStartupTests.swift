import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import MatrixTransport
import ServiceLifecycle
import Testing

extension MatrixIntegrationTests.HostileChain {
  @Suite("start-up and sign-in", .serialized)
  struct Startup {
    @Test("a wrong access token is a clear start-up error, not a crash loop")
    func wrongToken() async throws {
      let account = try await MatrixHuman.register("bot")
      let transport = MatrixTransport(
        configuration: MatrixTransportConfiguration(
          homeserver: SynapseEnvironment.url!, userID: account.userID, accessToken: "syt_not_a_token"),
        stateStore: InMemoryTransportStateStore(), logger: Logger.quiet())
      await #expect {
        try await transport.run()
      } throws: { error in
        guard let error = error as? MatrixTransportError, case .tokenRejected = error else { return false }
        return error.description.contains("rejected the access token") && !error.description.contains("syt_not")
      }
      guard case .stopped(let reason) = transport.status else {
        Issue.record("status should be stopped, is \(transport.status)")
        return
      }
      #expect(reason.contains("access token"))
    }

    @Test("an unreachable homeserver is retried with a clear reason in the status, and shutdown ends the wait at once")
    func unreachable() async throws {
      // A port nobody listens on: the discard port on loopback.
      let transport = MatrixTransport(
        configuration: MatrixTransportConfiguration(
          homeserver: URL(string: "http://127.0.0.1:9")!, userID: "@bot:localhost", accessToken: "x"),
        stateStore: InMemoryTransportStateStore(),
        retryPolicy: MatrixRetryPolicy(
          backoffBase: .milliseconds(20), maximumBackoff: .seconds(30), startupAttempts: 2,
          startupRequestTimeout: .seconds(1)),
        logger: Logger.quiet())
      let running = RunningServices([transport])
      _ = try await eventually(timeout: .seconds(20), every: .milliseconds(50)) {
        if case .reconnecting = transport.status { true } else { false }
      }
      // Not a crash loop and not a silent wait: the status names the homeserver that cannot be reached.
      guard case .reconnecting(let reason) = transport.status else {
        Issue.record("expected reconnecting, got \(transport.status)")
        await running.stop(within: .zero)
        return
      }
      #expect(reason.contains("cannot reach the Matrix homeserver http://127.0.0.1:9"))
      // While it waits out a long backoff, a graceful shutdown (SIGTERM) ends it within a few seconds. Waited out on
      // purpose: the time lets the backoff grow past the first short retry, which is what the stop must interrupt.
      try await Task.sleep(for: .seconds(2))
      let asked = ContinuousClock.now
      await running.stop()
      #expect(ContinuousClock.now - asked < .seconds(5))
    }

    @Test("a password login keeps token and device in the store; a restart reuses them")
    func passwordLoginPersists() async throws {
      try await MatrixTestWorld.with { world in
        let first = try MatrixBotProcess(world: world)
        let (token, device) = try await first.run { bot in
          (
            try await bot.stateStore.value(for: "access_token"),
            try await bot.stateStore.value(for: "device_id")
          )
        }
        let storedToken = try #require(token)
        #expect(device?.hasPrefix("AWFULBOT") == true)

        let second = try MatrixBotProcess(world: world)
        let (secondToken, secondDevice) = try await second.run { bot in
          (try await bot.stateStore.value(for: "access_token"), try await bot.stateStore.value(for: "device_id"))
        }
        #expect(secondToken == storedToken, "no second login")
        #expect(secondDevice == device)
      }
    }

    @Test("a stored token the homeserver forgot leads to a new login on the same device")
    func reloginAfterLogout() async throws {
      try await MatrixTestWorld.with { world in
        let first = try MatrixBotProcess(world: world)
        let (stored, device): (String?, String?) = try await first.run { bot in
          (try await bot.stateStore.value(for: "access_token"), try await bot.stateStore.value(for: "device_id"))
        }
        let token = try #require(stored)
        // Log the stored session out behind the bot's back.
        _ = try await MatrixHuman.raw(
          "POST", "/_matrix/client/v3/logout", body: [:], token: token)
        let second = try MatrixBotProcess(world: world)
        let (renewed, renewedDevice) = try await second.run { bot in
          (try await bot.stateStore.value(for: "access_token"), try await bot.stateStore.value(for: "device_id"))
        }
        #expect(renewed != nil && renewed != token)
        #expect(renewedDevice == device)
      }
    }

    @Test("rooms named in the config are joined at start, by id or alias")
    func configuredRooms() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let alias = "cfg\(UUID().uuidString.prefix(6).lowercased())"
        let byAlias = try await owner.createRoom(invite: [world.botAccount.userID], alias: alias)
        let byID = try await owner.createRoom(invite: [world.botAccount.userID])
        let bot = try MatrixBotProcess(world: world) { configuration in
          configuration.allowedInviters = []
          configuration.rooms = ["#\(alias):localhost", byID]
        }
        try await bot.run { bot in
          #expect(try await owner.membership(of: world.botAccount.userID, in: byAlias) == "join")
          #expect(try await owner.membership(of: world.botAccount.userID, in: byID) == "join")
          try await bot.waitUntilJoined(byAlias)
          try await bot.waitUntilJoined(byID)
        }
      }
    }
  }
}
