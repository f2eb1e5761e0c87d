/// `msgtype` values of `m.room.message`: the bot writes notices and pictures and reads text.
package enum MatrixMessageType {
  /// What the bot sends: clients and other bots treat notices as automatic and never answer them.
  package static let notice = "m.notice"
  /// What people write; the only kind that can be a command.
  package static let text = "m.text"
  package static let image = "m.image"
}
