import ChatBridge
import Logging
import ServiceLifecycle
import Synchronization

/// Runs one chat transport so that it stands alone: a transport that stops for good (refused credentials) is
/// reported and left stopped while polling and the other transports go on; the bot as a whole ends only when no
/// transport can ever work, with the last one's error (so `run` exits 78 and says why). The application runs its
/// services with `successTerminationBehavior: .ignore`, so a transport (or its event listener) that ends early never
/// ends the service group.
struct TransportSupervisor: Service {
  /// Shared by the supervisors of one bot: how many transports there are, how many have stopped for good.
  final class Tally: Sendable {
    private let state: Mutex<(total: Int, stopped: Int)>
    init(total: Int) { state = Mutex((total, 0)) }

    /// Counts one more stopped transport; true when that was the last one still able to work.
    func stopped() -> Bool {
      state.withLock { state in
        state.stopped += 1
        return state.stopped >= state.total
      }
    }
  }

  let transport: any ChatTransport
  let tally: Tally
  let logger: Logger

  func run() async throws {
    do {
      try await transport.run()
    } catch is CancellationError {
      return
    } catch  where StartupFailure.exitCode(for: error) == StartupFailure.configurationExitCode {
      logger.error(
        "chat transport stopped for good; the others go on",
        metadata: ["transport": "\(transport.name)", "error": "\(error)"])
      if tally.stopped() { throw error }
    }
  }
}
