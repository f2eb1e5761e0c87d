import ChatBridge
import ForumModel
import Foundation

/// How the account's probation is said in chat: in `status`, and as the reason `reply` and `pmreply` are refused.
enum ProbationText {
  /// " until 2025-06-25 18:50 UTC" when the banner names the end, else "".
  static func until(_ probation: Probation, dates: DateText) -> String {
    if let until = probation.until { return " until \(dates.format(until))" }
    if let raw = probation.untilRaw { return " until \(raw) (forum time)" }
    return ""
  }

  /// The refusal of a command that would post.
  static func refusal(_ probation: Probation, dates: DateText) -> CommandError {
    .failed(
      "The forum account is on probation\(until(probation, dates: dates)), so the forum refuses its posts and "
        + "private messages; nothing was sent. Relays go on as usual.")
  }
}
