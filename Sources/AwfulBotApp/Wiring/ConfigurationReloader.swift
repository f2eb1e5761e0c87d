import BotCore
import ChatBridge
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reads the config again on SIGHUP (`systemctl reload`, a closed terminal) instead of dying of it. A config that
/// does not validate changes nothing: every problem is logged, as `check` would say it, `status` shows the refusal,
/// and the bot goes on with the one it has. A valid one applies what can change while running — roles, poll
/// intervals, the metrics listener, the configured rooms (new rooms, their subscriptions, modes, who may reply,
/// reactions; the config's own subscriptions of a removed room or line are removed), the private-message rooms,
/// and each transport's live keys (IRC channels joined or parted, Matrix rooms joined) — with one log line per
/// change, and names every other changed key as needing a restart. Connections are never dropped by a reload.
package final class ConfigurationReloader: Service, Sendable {
  let application: BotApplication
  let path: String
  let logger: Logger
  private let environment: @Sendable () -> [String: String]
  private let current: Mutex<AppConfiguration>

  package init(
    application: BotApplication, path: String, logger: Logger,
    environment: @escaping @Sendable () -> [String: String] = { ProcessInfo.processInfo.environment }
  ) {
    self.application = application
    self.path = path
    self.logger = logger
    self.environment = environment
    self.current = Mutex(application.configuration)
    if let stamp = ConfigurationStamp.of(path: path) { application.monitor.recordConfiguration(stamp) }
  }

  package func run() async throws {
    let signals = await UnixSignalsSequence(trapping: .sighup)
    for await _ in signals.cancelOnGracefulShutdown() {
      await reload()
    }
  }

  /// What a reload did: refused with the problems, or applied with what changed.
  package enum Outcome: Sendable, Equatable {
    case refused([String])
    case applied(ConfigurationChanges)
  }

  @discardableResult
  package func reload() async -> Outcome {
    let environment = environment()
    let next: AppConfiguration
    do {
      next = try AppConfiguration.loadReportingWarnings(path: path, environment: environment).configuration
    } catch {
      let problems = (error as? ConfigurationError)?.problems ?? ["\(error)"]
      for problem in problems {
        logger.error(
          "configuration reload refused; the running configuration stays", metadata: ["problem": "\(problem)"])
      }
      recordRefusal(problems)
      _ = await application.monitor.beat()
      return .refused(problems)
    }
    let previous = current.withLock { $0 }
    let changes = ConfigurationChanges(from: previous, to: next)
    for key in changes.restartKeys {
      logger.warning("configuration change needs a restart; the running value stays", metadata: ["key": "\(key)"])
    }
    if changes.roles {
      application.permissions.replaceGrants(with: BotApplication.permissionPolicy(for: next))
      logger.info("roles replaced", metadata: ["grants": "\(next.roles?.count ?? 0)"])
    }
    if changes.pollIntervals {
      let intervals = PollSchedule.Intervals(BotApplication.engineConfiguration(for: next))
      application.engine.polling.updateIntervals(intervals)
      logger.info(
        "poll intervals changed",
        metadata: [
          "bookmarksSeconds": "\(intervals.bookmarks.components.seconds)",
          "bookmarksMinimumSeconds": "\(intervals.bookmarksMinimum.components.seconds)",
          "announcementsSeconds": "\(intervals.announcements.components.seconds)",
          "forumsSeconds": "\(intervals.forums.components.seconds)",
        ])
    }
    if changes.metrics {
      let address = BotApplication.metricsAddress(for: next)
      application.metricsListener.apply(address)
      logger.info("metrics listener reconfigured", metadata: ["address": "\(address.map { "\($0)" } ?? "off")"])
    }
    for name in changes.reconfiguredTransports {
      await reconfigureTransport(named: name, from: previous, to: next, environment: environment)
    }
    if changes.rooms || changes.privateMessageRooms {
      await applyRooms(from: previous, to: next)
    }
    // After the rooms: a config subscription removed with its channel leaves nothing to pause for.
    await followOwnRooms(of: changes.reconfiguredTransports, from: previous, to: next)
    if changes.rooms || changes.privateMessageRooms || !changes.reconfiguredTransports.isEmpty {
      await renameRooms(in: next, environment: environment)
    }
    current.withLock { $0 = next }
    if let stamp = ConfigurationStamp.of(path: path) { application.monitor.recordConfiguration(stamp) }
    // Written now rather than at the next heartbeat, so `status` right after `systemctl reload` tells.
    _ = await application.monitor.beat()
    logger.info(
      "configuration reloaded",
      metadata: [
        "applied": "\(changes.summary.joined(separator: ","))",
        "needsRestart": "\(changes.restartKeys.joined(separator: ","))",
        "checksum": "\(application.monitor.configuration?.checksum ?? "-")",
      ])
    return .applied(changes)
  }

  private func recordRefusal(_ problems: [String]) {
    var stamp =
      application.monitor.configuration
      ?? ConfigurationStamp(path: path, checksum: "-", loadedAt: Date(), modifiedAt: nil)
    stamp.refusedAt = Date()
    stamp.refusedChecksum = ConfigurationStamp.of(path: path)?.checksum
    stamp.refusedProblems = problems
    application.monitor.recordConfiguration(stamp)
  }

  private func reconfigureTransport(
    named name: String, from previous: AppConfiguration, to next: AppConfiguration, environment: [String: String]
  ) async {
    guard let before = previous.transports.first(where: { $0.resolvedName == name }),
      let after = next.transports.first(where: { $0.resolvedName == name }),
      let transport = application.transports.first(where: { $0.name == name })
    else { return }
    let context = TransportBuildContext(logger: logger)
    do {
      for change in try await before.reconfigure(transport, to: after, context: context) {
        logger.info("transport reconfigured", metadata: ["transport": "\(name)", "change": "\(change)"])
      }
    } catch {
      logger.error("transport not reconfigured", metadata: ["transport": "\(name)", "error": "\(error)"])
    }
  }

  /// Removes what the previous config made and the new one no longer names (the private-message rooms, the config's
  /// own subscriptions; what users added in chat stays), then seeds the new config's rooms as at start.
  private func applyRooms(from previous: AppConfiguration, to next: AppConfiguration) async {
    let engine = application.engine
    let keptAlertRooms = Set((next.privateMessages?.rooms ?? []).map { "\($0.transport) \($0.room)" })
    for room in previous.privateMessages?.rooms ?? [] where !keptAlertRooms.contains("\(room.transport) \(room.room)") {
      guard let ref = await roomRef(transport: room.transport, room: room.room) else { continue }
      if engine.privateMessageRooms.remove(ref) {
        logger.info(
          "private-message room removed", metadata: ["transport": "\(room.transport)", "room": "\(room.room)"])
      }
    }
    let nextRooms = Dictionary(
      (next.rooms ?? []).map { ("\($0.transport) \($0.room)", $0) }, uniquingKeysWith: { first, _ in first })
    for room in previous.rooms ?? [] {
      let kept = Set((nextRooms["\(room.transport) \(room.room)"]?.subscriptions ?? []).map(\.target))
      let removed = (room.subscriptions ?? []).map(\.target).filter { !kept.contains($0) }
      guard !removed.isEmpty, let ref = await roomRef(transport: room.transport, room: room.room) else { continue }
      do {
        for subscription in try await engine.subscriptions.subscriptions(room: ref)
        where subscription.createdBy == Subscription.createdByConfiguration && removed.contains(subscription.target) {
          _ = try await engine.subscriptions.unsubscribe(room: ref, id: subscription.id)
          logger.info(
            "config subscription removed",
            metadata: ["room": "\(room.room)", "subscription": "\(subscription.target)"])
        }
      } catch {
        logger.error("config subscriptions not removed", metadata: ["room": "\(room.room)", "error": "\(error)"])
      }
    }
    let previousRooms = Set(ConfiguredRoom.all(in: previous).map { "\($0.transport) \($0.room)" })
    for room in ConfiguredRoom.all(in: next) where !previousRooms.contains("\(room.transport) \(room.room)") {
      logger.info("configured room added", metadata: ["transport": "\(room.transport)", "room": "\(room.room)"])
    }
    do {
      let unresolved = try await application.seed(
        ConfiguredRoom.all(in: next), waitingAtMost: BotApplication.startResolveLimit, logFailures: true)
      application.pendingRooms.withLock { $0 = unresolved }
    } catch {
      logger.error("configured rooms not applied", metadata: ["error": "\(error)"])
    }
  }

  /// Room power counts for the account only in the rooms the new config names: the set is replaced by those whose ids
  /// are found now (one still pending is named when `ConfiguredRoomRetry` finds it).
  private func renameRooms(in next: AppConfiguration, environment: [String: String]) async {
    var named: Set<RoomRef> = []
    for room in ConfiguredRoom.named(in: next) {
      if let ref = await roomRef(transport: room.transport, room: room.room) { named.insert(ref) }
    }
    let before = application.permissions.current.namedRooms
    application.permissions.replaceNamedRooms(with: named)
    if before != named {
      logger.info(
        "rooms where room power counts for the forum account changed",
        metadata: ["added": "\(named.subtracting(before).count)", "removed": "\(before.subtracting(named).count)"])
    }
  }

  /// The id the engine keys a configured room by (a Matrix alias resolved, as at start); nil when that fails now.
  func roomRef(transport name: String, room: String) async -> RoomRef? {
    guard
      let roomID = await application.configuredRoomID(
        transport: name, room: room, waitingAtMost: BotApplication.startResolveLimit, logFailure: false)
    else {
      logger.warning("configured room not found", metadata: ["transport": "\(name)", "room": "\(room)"])
      return nil
    }
    return RoomRef(transport: name, room: roomID)
  }
}
