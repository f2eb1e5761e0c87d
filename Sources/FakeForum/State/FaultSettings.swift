import Foundation

/// The faults in force. At most one of each kind.
package struct FaultSettings: Sendable, Hashable, Codable {
  /// Remaining 500s; `Int.max` stands for "until cleared".
  package var serverErrorsRemaining: Int = 0
  package var delayMilliseconds: Int = 0
  package var databaseUnavailable = false
  package var banned = false
  package var truncatedHTML = false
  package var probation = false
  /// The end the probation banner names (set with the fault; see `ForumState.setProbation(until:)`).
  package var probationUntil: Date?
  /// The flood check's minimum between two replies of one account, in seconds; 0 is off.
  package var floodSeconds = 0
  /// The wall in front of the forum, if any.
  package var wall: WallFault?

  package init() {}

  package mutating func apply(_ fault: Fault) {
    switch fault {
    case .serverError(let count): serverErrorsRemaining = count.map { max(0, $0) } ?? Int.max
    case .delay(let milliseconds): delayMilliseconds = max(0, milliseconds)
    case .databaseUnavailable: databaseUnavailable = true
    case .banned: banned = true
    case .truncatedHTML: truncatedHTML = true
    case .probation: probation = true
    case .floodCheck(let seconds): floodSeconds = max(0, seconds)
    case .wall(let wall): self.wall = wall
    }
  }

  package mutating func clear(_ kind: FaultKind) {
    switch kind {
    case .serverError: serverErrorsRemaining = 0
    case .delay: delayMilliseconds = 0
    case .databaseUnavailable: databaseUnavailable = false
    case .banned: banned = false
    case .truncatedHTML: truncatedHTML = false
    case .probation:
      probation = false
      probationUntil = nil
    case .floodCheck: floodSeconds = 0
    case .wall: wall = nil
    }
  }

  /// Consumes one 500 when that fault is on.
  mutating func takeServerError() -> Bool {
    guard serverErrorsRemaining > 0 else { return false }
    if serverErrorsRemaining != Int.max { serverErrorsRemaining -= 1 }
    return true
  }

  /// The faults in force, as the admin API lists them.
  package var active: [Fault] {
    var faults: [Fault] = []
    if serverErrorsRemaining > 0 {
      faults.append(.serverError(count: serverErrorsRemaining == Int.max ? nil : serverErrorsRemaining))
    }
    if delayMilliseconds > 0 { faults.append(.delay(milliseconds: delayMilliseconds)) }
    if databaseUnavailable { faults.append(.databaseUnavailable) }
    if banned { faults.append(.banned) }
    if truncatedHTML { faults.append(.truncatedHTML) }
    if probation { faults.append(.probation) }
    if floodSeconds > 0 { faults.append(.floodCheck(seconds: floodSeconds)) }
    if let wall { faults.append(.wall(wall)) }
    return faults
  }
}
