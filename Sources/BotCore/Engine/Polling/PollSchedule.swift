import Foundation
import Synchronization

/// The poll intervals the engine reads at each cycle, which a reloaded config may change while the bot runs
/// (`PollCycle.updateIntervals`). The poll parts read them from here, not from their copy of
/// `EngineConfiguration`, so a change reaches the next cycle without rebuilding the engine.
package final class PollSchedule: Sendable {
  /// The intervals of `polling` (the others in `EngineConfiguration` are fixed for the life of the engine).
  package struct Intervals: Sendable, Hashable {
    package var bookmarks: Duration
    package var bookmarksMinimum: Duration
    package var bookmarksFullSweep: Duration
    package var announcements: Duration
    package var forums: Duration
    package var forumsMinimum: Duration
    package var privateMessages: Duration
    package var lepers: Duration
    package var maximumBackoff: Duration

    package init(_ configuration: EngineConfiguration) {
      bookmarks = configuration.bookmarksInterval
      bookmarksMinimum = configuration.bookmarksMinimumInterval
      bookmarksFullSweep = configuration.bookmarksFullSweepInterval
      announcements = configuration.announcementsInterval
      forums = configuration.forumsInterval
      forumsMinimum = configuration.forumsMinimumInterval
      privateMessages = configuration.privateMessagesInterval
      lepers = configuration.lepersInterval
      maximumBackoff = configuration.maximumPollBackoff
    }

    /// The longest wait between reads of a source (its only one when it is not paced).
    func ceiling(for source: PollSource) -> Duration {
      switch source {
      case .bookmarks: bookmarks
      case .announcements: announcements
      case .forum: forums
      case .privateMessages: privateMessages
      case .lepers: lepers
      }
    }

    /// The shortest and longest wait: the bookmarks and watched forums are paced between the two, the announcements
    /// and the inbox keep one interval.
    func bounds(for source: PollSource) -> (floor: Duration, ceiling: Duration) {
      switch source {
      case .bookmarks: (min(bookmarksMinimum, bookmarks), bookmarks)
      case .forum: (min(forumsMinimum, forums), forums)
      case .announcements, .privateMessages, .lepers: (ceiling(for: source), ceiling(for: source))
      }
    }
  }

  private let state: Mutex<Intervals>

  package init(_ intervals: Intervals) {
    state = Mutex(intervals)
  }

  package var current: Intervals { state.withLock { $0 } }

  /// Replaces the intervals; returns the previous ones.
  @discardableResult
  func replace(with intervals: Intervals) -> Intervals {
    state.withLock { current in
      let previous = current
      current = intervals
      return previous
    }
  }
}
