import AwfulBotIRCTestKit
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import Foundation
import Testing

/// Each chat service stands alone (issue 14): `awfulbot run` with IRC on the test network and a Matrix transport that
/// cannot work. IRC relays a new forum post all the same; `status`, `/readyz` and the connection metric name the
/// Matrix transport as reconnecting (homeserver down) or stopped (credentials refused, with a log line naming the
/// cause); the bot does not exit over it, and SIGTERM ends it within seconds.
extension IRCLiveTests {
  @Suite("each chat service stands alone: IRC relays while Matrix cannot work", .serialized)
  struct ChatServicesStandAlone {
    /// The longest a SIGTERM may take to end `run`, whatever the transports are doing.
    static let shutdownLimit: Duration = .seconds(5)

    @Test("Matrix down at start (a closed loopback port): IRC relays, Matrix is reconnecting, SIGTERM ends run")
    func matrixDownAtStart() async throws {
      let port = try await closedLoopbackPort()
      let homeserver = "http://127.0.0.1:\(port)"
      let token = "syt_alone_\(UUID().uuidString)"
      let bot = try await TwoServiceBot.start(
        matrix: ["homeserver": homeserver, "userID": "@alone:localhost"], matrixRoom: "!alone:localhost",
        secrets: ["AWFULBOT_MATRIX_ACCESS_TOKEN": token])
      do {
        let text = "Relayed while the homeserver is down \(IRCTestEnvironment.unique(""))"
        let relay = try await bot.postAndReadOnIRC(text)
        #expect(relay.parameters.first?.lowercased() == bot.channel.lowercased())

        // The heartbeat's record, as `awfulbot status` prints it.
        let expected = "reconnecting (cannot reach the Matrix homeserver \(homeserver)"
        var matrix: [String: Any]?
        let reported = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
          matrix = try await bot.statusOfTransport("matrix")
          return (matrix?["problem"] as? String)?.hasPrefix(expected) == true
        }
        #expect(reported, "status: \(String(describing: matrix)); log:\n\(bot.logTail())")
        #expect(matrix?["connected"] as? Bool == false)
        let irc = try await bot.statusOfTransport("irc")
        #expect(irc?["connected"] as? Bool == true, "status: \(String(describing: irc))")

        let ready = try await bot.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.body.contains("- transport matrix: \(expected)"), "\(ready.body)")
        #expect(!ready.body.contains("transport irc"), "\(ready.body)")
        let metrics = try await bot.get("/metrics").body.split(separator: "\n")
        #expect(metrics.contains(#"awfulbot_transport_connected{transport="matrix"} 0.0"#), "\(metrics)")
        #expect(metrics.contains(#"awfulbot_transport_connected{transport="irc"} 1.0"#), "\(metrics)")

        #expect(
          !bot.logLines(containing: "homeserver not ready, retrying", "transport=matrix", "homeserver unreachable")
            .isEmpty, "\(bot.log)")
        #expect(await bot.process.reap(timeout: .zero) == nil, "run keeps going: \(bot.logTail())")
        let (ending, took) = await bot.terminate()
        #expect(ending == .exited(0), "a clean exit on SIGTERM: \(String(describing: ending)); \(bot.logTail())")
        #expect(
          took < Self.shutdownLimit, "SIGTERM took \(took) while the homeserver was unreachable; log:\n\(bot.log)")
        print("matrix down at start: SIGTERM ended run in \(took)")
        #expect(!bot.log.contains(token), "the access token never reaches the log")
      } catch {
        await bot.stop()
        throw error
      }
      await bot.stop()
    }

    /// A Matrix account the homeserver refuses: a wrong password, or an access token it does not know.
    enum Refusal: String, CaseIterable, CustomTestStringConvertible {
      case wrongPassword = "a wrong password"
      case invalidToken = "an invalid access token"
      var testDescription: String { rawValue }
    }

    @Test(
      "Matrix login refused on the test Synapse: stopped with the cause logged, IRC relays, run goes on",
      .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason),
      arguments: Refusal.allCases)
    func matrixLoginRefused(_ refusal: Refusal) async throws {
      let account = try await MatrixHuman.register("alone")
      let secret = "wrong-\(UUID().uuidString)"
      let (variable, cause) =
        switch refusal {
        case .wrongPassword: ("AWFULBOT_MATRIX_PASSWORD", "login as \(account.userID) failed (M_FORBIDDEN")
        case .invalidToken:
          ("AWFULBOT_MATRIX_ACCESS_TOKEN", "the homeserver rejected the access token of \(account.userID)")
        }
      let bot = try await TwoServiceBot.start(
        matrix: ["homeserver": SynapseEnvironment.url!.absoluteString, "userID": account.userID],
        matrixRoom: "!alone:localhost", secrets: [variable: secret])
      do {
        // The refusal is logged once, naming the transport and the cause, and says the others go on.
        let logged = try await eventually(timeout: .seconds(30), every: .milliseconds(500)) {
          !bot.logLines(containing: "chat transport stopped for good; the others go on").isEmpty
        }
        #expect(logged, "log:\n\(bot.log)")
        let lines = bot.logLines(containing: "chat transport stopped for good")
        #expect(lines.count == 1, "\(lines)")
        #expect(
          lines.allSatisfy { $0.contains(" error ") && $0.contains("transport=matrix") && $0.contains(cause) },
          "\(lines)")
        #expect(bot.logLines(containing: "matrix transport could not start", cause).count == 1, "\(bot.log)")
        print("matrix refused (\(refusal.rawValue)), the log says: \(lines.first ?? "")")

        let text = "Relayed while Matrix is refused \(IRCTestEnvironment.unique(""))"
        let relay = try await bot.postAndReadOnIRC(text)
        #expect(relay.parameters.first?.lowercased() == bot.channel.lowercased())

        var matrix: [String: Any]?
        let reported = try await eventually(timeout: .seconds(20), every: .milliseconds(500)) {
          matrix = try await bot.statusOfTransport("matrix")
          return (matrix?["problem"] as? String)?.hasPrefix("stopped: \(cause)") == true
        }
        #expect(reported, "status: \(String(describing: matrix))")
        #expect(matrix?["connected"] as? Bool == false)
        #expect(try await bot.statusOfTransport("irc")?["connected"] as? Bool == true)
        let ready = try await bot.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.body.contains("- transport matrix: stopped: \(cause)"), "\(ready.body)")
        let metrics = try await bot.get("/metrics").body.split(separator: "\n")
        #expect(metrics.contains(#"awfulbot_transport_connected{transport="matrix"} 0.0"#), "\(metrics)")
        #expect(metrics.contains(#"awfulbot_transport_connected{transport="irc"} 1.0"#), "\(metrics)")

        // Refused for good, yet not the only transport: no exit 78, the bot goes on until SIGTERM.
        #expect(await bot.process.reap(timeout: .seconds(2)) == nil, "run exited: \(bot.logTail())")
        let (ending, took) = await bot.terminate()
        #expect(ending == .exited(0), "a clean exit on SIGTERM: \(String(describing: ending)); \(bot.logTail())")
        #expect(took < Self.shutdownLimit, "SIGTERM took \(took); log:\n\(bot.log)")
        print("matrix refused (\(refusal.rawValue)): SIGTERM ended run in \(took)")
        #expect(!bot.log.contains(secret), "the refused secret never reaches the log")
      } catch {
        await bot.stop()
        throw error
      }
      await bot.stop()
    }

    /// A new machine for a Matrix account whose cross-signing identity lives elsewhere (another client made it), with
    /// no recovery key: the Matrix transport stops with the sentence naming both ways on; IRC relays; run goes on.
    @Test(
      "Matrix identity held elsewhere and no recovery key: Matrix stops with the way on, IRC relays, run goes on",
      .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
    func matrixIdentityHeldElsewhere() async throws {
      let account = try await MatrixHuman.register("held")
      let elsewhere = try await MatrixE2EEHuman.anotherDevice(of: account, crossSign: true)
      await elsewhere.quit()
      let bot = try await TwoServiceBot.start(
        matrix: ["homeserver": SynapseEnvironment.url!.absoluteString, "userID": account.userID],
        matrixRoom: "!alone:localhost", secrets: ["AWFULBOT_MATRIX_PASSWORD": account.password])
      do {
        let cause = "end-to-end encryption cannot start: \(account.userID) already has a cross-signing identity"
        let logged = try await eventually(timeout: .seconds(30), every: .milliseconds(500)) {
          !bot.logLines(containing: "chat transport stopped for good; the others go on").isEmpty
        }
        #expect(logged, "log:\n\(bot.log)")
        let lines = bot.logLines(containing: "chat transport stopped for good")
        #expect(lines.count == 1 && lines.allSatisfy { $0.contains(cause) }, "\(lines)")
        #expect(lines.first?.contains("encryption.recoveryKey") == true)
        #expect(lines.first?.contains("--reset-matrix-identity") == true)
        print("matrix identity held elsewhere, the log says: \(lines.first ?? "")")

        let relay = try await bot.postAndReadOnIRC(
          "Relayed while Matrix waits for its key \(IRCTestEnvironment.unique(""))")
        #expect(relay.parameters.first?.lowercased() == bot.channel.lowercased())
        var matrix: [String: Any]?
        let reported = try await eventually(timeout: .seconds(20), every: .milliseconds(500)) {
          matrix = try await bot.statusOfTransport("matrix")
          return (matrix?["problem"] as? String)?.hasPrefix("stopped: \(cause)") == true
        }
        #expect(reported, "status: \(String(describing: matrix))")
        #expect(await bot.process.reap(timeout: .seconds(2)) == nil, "run exited: \(bot.logTail())")
        let (ending, _) = await bot.terminate()
        #expect(ending == .exited(0), "\(String(describing: ending)); \(bot.logTail())")
        #expect(!bot.log.contains(account.password), "the password never reaches the log")
      } catch {
        await bot.stop()
        throw error
      }
      await bot.stop()
    }
  }
}
