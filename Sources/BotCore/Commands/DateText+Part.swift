import ChatBridge
import Foundation

extension DateText {
  /// A moment in an answer: the renderer writes it, in this zone, as it writes a relay's date.
  func part(_ date: Date) -> CommandAnswer.Part {
    .date(ChatDate(date, timeZone: timeZone))
  }
}
