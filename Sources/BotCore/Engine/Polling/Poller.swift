import BotStore
import ChatBridge
import Foundation
import Logging
import ServiceLifecycle

/// Polls the forum on a schedule: the bookmarks every 10 s to a minute (paced by what moves, see `PollPace`),
/// announcements every 30 minutes (only while a room follows them), each followed forum every minute to 5 minutes,
/// the private-message inbox every 5 minutes (only while rooms are configured for it), all jittered, each source
/// backing off on its own after errors. `PollCycle.requestPoll()` brings the bookmarks and forums forward (not past
/// a backoff). One poll at a time, so the account has one request in flight, and the client spaces requests; a
/// command's request waits at most for the one in flight, since a check is mostly a single page.
/// The bookmarks' full sweep takes the time between polls a page at a time (`PollCycle.sweepBookmarks`), so a check
/// that falls due waits for one request at most, never for the whole sweep.
/// Held items (quiet hours, digests) are released between polls.
package final class Poller: Service, Sendable {
  private let engine: BotEngine
  private let logger: Logger

  package init(engine: BotEngine, logger: Logger = Logger(label: "awfulbot.poller")) {
    self.engine = engine
    self.logger = logger
  }

  /// Runs until graceful shutdown; a poll in progress finishes, no new one starts.
  package func run() async throws {
    let signal = engine.polling.signal
    await withGracefulShutdownHandler {
      await loop(signal: signal)
    } onGracefulShutdown: {
      signal.close()
    }
  }

  private func loop(signal: WakeSignal) async {
    var due: [PollSource: Date] = [:]
    var backingOff: Set<PollSource> = []
    // A sweep step that failed waits for the next successful check: the forum answers it first.
    var sweepHeld = false
    if let health = try? await engine.statusReports.health() {
      // Respect a backoff that was in force before a restart.
      for source in health.sources where source.consecutiveErrors > 0 {
        if let next = source.nextAttempt, let parsed = PollSource(name: source.source) {
          due[parsed] = next
          backingOff.insert(parsed)
        }
      }
    }

    while !signal.isClosed && !Task.isCancelled {
      let sources: [PollSource]
      do {
        sources = try await engine.polling.sources()
      } catch {
        logger.error("could not read the poll sources", metadata: ["error": "\(error)"])
        await signal.wait(timeout: engine.configuration.pollBackoffBase)
        continue
      }
      let now = engine.now()
      for source in sources where (due[source] ?? now) <= now {
        if signal.isClosed { return }
        engine.configuration.pollStarted?(source, engine.now().timeIntervalSince(due[source] ?? now))
        let report = await engine.polling.poll(source)
        due[source] = report.nextAttempt ?? now.addingTimeInterval(engine.polling.interval(for: source).timeInterval)
        if report.succeeded {
          backingOff.remove(source)
          if source == .bookmarks { sweepHeld = false }
        } else {
          backingOff.insert(source)
        }
      }
      do {
        try await engine.outbox.releaseHeld()
      } catch  where !Task.isCancelled {
        // A full disk is logged once when it begins (see `StorageLog`), not at every loop.
        logger.log(
          level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not release held messages",
          metadata: ["error": "\(error)"])
      } catch {
        return
      }
      // Forget sources no room follows any more.
      due = due.filter { sources.contains($0.key) }

      let afterPolls = engine.now()
      let nextDue = sources.compactMap { due[$0] }.min() ?? afterPolls
      let releaseCheck = afterPolls.addingTimeInterval(engine.configuration.releaseCheckInterval.timeInterval)
      var wake = min(nextDue, releaseCheck)
      // Nothing due before a request could be made: a step of the full sweep, if one is in progress, and then
      // straight back to what falls due.
      if nextDue.timeIntervalSince(afterPolls) > engine.configuration.sweepStepLead.timeInterval, !sweepHeld,
        !backingOff.contains(.bookmarks), !signal.isClosed,
        let step = await engine.polling.sweepBookmarks()
      {
        if !step.succeeded { sweepHeld = true }
        wake = afterPolls
      }
      let signalled = await signal.wait(timeout: .seconds(max(wake.timeIntervalSince(afterPolls), 0)))
      if signalled && !signal.isClosed {
        let requested = engine.now()
        for source in sources where !backingOff.contains(source) {
          if source == .announcements || source == .privateMessages || source == .lepers {
            // Not brought forward by a request, but never due later than their interval allows now (a reloaded
            // config may have shortened it).
            let latest = requested.addingTimeInterval(engine.polling.interval(for: source).timeInterval)
            due[source] = min(due[source] ?? latest, latest)
          } else {
            due[source] = requested
          }
        }
      }
    }
  }
}
