import BotStore
import Foundation

/// A fault for tests only: with `AWFULBOT_FAULT_CRASH_ON_SEND=<text>` in the bot's environment, the dispatcher stops
/// the process (as a bug in a send would) when it is about to send a row whose stored message contains the text,
/// after the row is marked in flight. The acceptance suite sets it on the `awfulbot run` it starts, to prove the
/// poison-message guard (see `CrashGuard`); the dispatcher warns at start when it is set. Never set it in production.
enum SendFault {
  static let variable = "AWFULBOT_FAULT_CRASH_ON_SEND"

  /// The text, read once from this process's environment; nil (no fault) when unset or empty.
  static let crashOnSend: String? = {
    guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return nil }
    return text
  }()

  /// Stops the process when the fault is set and `row` carries its text.
  static func check(_ row: OutboxRecord) {
    guard let text = crashOnSend, row.payload.contains(text) else { return }
    fatalError("\(variable): row \(row.id ?? 0) carries the fault's text; stopping as a crash in its send would")
  }
}
