import ChatBridge
import ForumModel
import Foundation

/// How the account's probation is said in chat: in `status`, and as the reason `reply` and `pmreply` are refused.
enum ProbationText {
  /// " until 2025-06-25 18:50 UTC" when the banner names the end, else nothing; the date is the renderer's to write.
  static func untilParts(_ probation: Probation, dates: DateText) -> [CommandAnswer.Part] {
    if let until = probation.until { return [.text(" until "), dates.part(until)] }
    if let raw = probation.untilRaw { return [.text(" until \(raw) (forum time)")] }
    return []
  }

  /// The same in an error's sentence, which is text (a refusal is a `CommandError`).
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
