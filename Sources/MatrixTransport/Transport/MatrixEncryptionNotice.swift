import ChatBridge

/// The one message the bot posts in an end-to-end encrypted room when encryption is off (no `pickleKey`): commands
/// written there never reach it, and without this notice users would type `!help` and hear nothing. The notice itself
/// goes out unencrypted, as relayed posts then do. With a pickle key the bot reads and writes the room instead.
package enum MatrixEncryptionNotice {
  package static let text =
    "This room is end-to-end encrypted, and I cannot read encrypted messages: commands written here never reach me. "
    + "Relayed posts still arrive (unencrypted). Talk to me in an unencrypted room."

  static var content: JSONValue { .object(MatrixMessageContent.plainContent(text: text, html: nil)) }

  /// Fixed per room, so a resend after a crash (notice accepted, not yet remembered) yields the same event.
  static func transactionID(room: String) -> String { "awfulbot-encryption-notice-\(room)" }
}
