/// What the bot says, before it is rendered: the outbox stores this, and each transport renders it at send time.
/// Cases are only ever added; a stored case never changes meaning.
package enum ChatMessage: Sendable, Hashable, Codable {
  case post(PostRelay)
  case alert(PostAlert)
  case summary(PostSummary)
  case announcement(AnnouncementRelay)
  case newThread(NewThreadNotice)
  case digest(Digest)
  case answer(CommandAnswer)
  /// A new private message to the bot account (rooms in `privateMessages.rooms` only).
  case privateMessage(PrivateMessageAlert)
  /// A row queued before messages were typed (outbox schema 1): text rendered then, shown as it was.
  case legacy(text: String, html: String?, link: String?)
  /// A new Leper's Colony entry (rooms subscribed to `lepers`).
  case punishment(PunishmentRelay)
  /// Leper's Colony entries past a room's replay cap, counted.
  case punishments(PunishmentSummary)
}
