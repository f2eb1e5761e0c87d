import ChatBridge
import ForumModel
import Foundation

/// What stops a command before it runs: the trust check (an event in clear in an encrypted room acts on nothing) and
/// the command budget (`CommandBudget`). Each refusal is said once; what follows is ignored in silence and logged.
extension CommandRouter {
  /// The answer to a message that would act but passed no trust check (unencrypted in an encrypted room): said once
  /// per room and sender, then nil (nothing is said twice); every refusal is logged.
  func refuseUntrusted(_ message: IncomingMessage, doing action: String) async -> CommandReply? {
    logger.notice(
      "unencrypted request in an encrypted room not acted on",
      metadata: [
        "transport": "\(message.transport)", "room": "\(message.room)", "sender": "\(message.senderID)",
        "action": "\(action)",
      ])
    let key = UntrustedSenders.Key(transport: message.transport, room: message.room, senderID: message.senderID)
    guard await untrustedSenders.shouldTell(key) else { return nil }
    return CommandReply(Self.untrustedRefusal(action))
  }

  /// Why an unencrypted request does not act, and how to do it instead.
  static func untrustedRefusal(_ action: String) -> String {
    "\(action) came unencrypted in this encrypted room, so nothing shows it is yours: I act here only on what a "
      + "verified session sends encrypted. Send it again from a session you have verified, with encryption on (in "
      + "Element: Settings → Sessions). I will not repeat this here."
  }

  /// The operator's admins for the account answer for it already (they may post as it): no budget holds them back.
  /// Everyone else's commands count (`CommandBudget`), and so does anything that passed no trust check: a stolen
  /// admin token writing in clear is held to the budget like anyone.
  func isExemptFromBudget(_ message: IncomingMessage) -> Bool {
    message.trust.isTrusted && permissions.role(of: message, in: .account) >= .admin
  }

  /// The forum as a command of `message` may use it: within the commands' share of requests, unless exempt.
  func forum(for message: IncomingMessage) -> any Forum {
    isExemptFromBudget(message) ? forum : BudgetedForum(base: forum, budget: budget, now: now)
  }

  /// A command stopped at the budget, and what it says then: the refusal (said once), or nothing (already told).
  struct BudgetStop {
    var reply: CommandReply?
  }

  /// nil when the sender and room may give another command now; else what to answer.
  func overBudget(_ message: IncomingMessage) async -> BudgetStop? {
    if isExemptFromBudget(message) { return nil }
    let room = RoomRef(transport: message.transport, room: message.room)
    switch await budget.admit(user: Self.budgetKey(message), room: "\(room)", now: now()) {
    case .allowed:
      return nil
    case .refused(let sentence):
      logger.notice(
        "commands over budget",
        metadata: ["transport": "\(message.transport)", "room": "\(message.room)", "sender": "\(message.senderID)"])
      return BudgetStop(reply: CommandReply(sentence))
    case .ignored:
      return BudgetStop(reply: nil)
    }
  }

  /// One budget per user per transport, whatever room they write in.
  static func budgetKey(_ message: IncomingMessage) -> String { "\(message.transport) \(message.senderID)" }
}
