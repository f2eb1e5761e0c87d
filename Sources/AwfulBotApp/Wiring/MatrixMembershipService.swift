import BotCore
import Logging
import MatrixTransport
import ServiceLifecycle

/// Follows a Matrix transport's own membership changes: when the bot is kicked or banned from a room, the room is
/// paused in the engine, so its posts are held (and counted in `status`) instead of failing delivery one by one.
/// A room is not resumed automatically when the bot is let back in: whoever invites it back says `resume`.
package struct MatrixMembershipService: Service {
  package let transport: MatrixTransport
  package let engine: BotEngine
  package let logger: Logger
  /// Called after each change is handled (tests watch it).
  package let observe: @Sendable (MatrixMembershipChange) -> Void

  package init(
    transport: MatrixTransport, engine: BotEngine, logger: Logger = Logger(label: "awfulbot.matrix"),
    observe: @escaping @Sendable (MatrixMembershipChange) -> Void = { _ in }
  ) {
    self.transport = transport
    self.engine = engine
    self.logger = logger
    self.observe = observe
  }

  /// One service per Matrix transport among `transports`.
  package static func services(for transports: [any ChatTransport], engine: BotEngine, logger: Logger)
    -> [any Service]
  {
    transports.compactMap { $0 as? MatrixTransport }.map {
      MatrixMembershipService(transport: $0, engine: engine, logger: logger)
    }
  }

  package func run() async throws {
    for await change in transport.membershipChanges.cancelOnGracefulShutdown() {
      await handle(change)
      observe(change)
    }
  }

  func handle(_ change: MatrixMembershipChange) async {
    let metadata: Logger.Metadata = [
      "transport": "\(transport.name)", "room": "\(change.room)", "kind": "\(change.kind.rawValue)",
      "by": "\(change.by ?? "-")", "reason": "\(change.reason ?? "-")",
    ]
    guard change.kind == .kicked || change.kind == .banned else {
      logger.info("matrix membership changed", metadata: metadata)
      return
    }
    do {
      let wasPaused = try await engine.setPaused(room: RoomRef(transport: transport.name, room: change.room), to: true)
      logger.warning(
        "matrix room paused after the bot was removed",
        metadata: metadata.merging(["wasPaused": "\(wasPaused)"]) { $1 })
    } catch {
      logger.error(
        "could not pause a matrix room the bot was removed from",
        metadata: metadata.merging(["error": "\(error)"]) { $1 })
    }
  }
}
