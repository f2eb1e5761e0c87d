import BotStore
import ChatBridge

/// How `status` (the command line) and `!status` (chat) tell parked messages, the rows the poison-message guard took
/// out of the queue (see `CrashGuard`): "1 message not sent: it stopped the bot twice (row 17, room !abc)".
package enum ParkedText {
  /// One row as the sentence names it: its outbox id, with its room when `withRoom`, and its post when it has one.
  package static func name(of row: OutboxRecord, withRoom: Bool) -> String {
    name(id: row.id ?? 0, transport: row.transport, room: row.room, postID: row.postID, withRoom: withRoom)
  }

  package static func name(id: Int64, transport: String, room: String, postID: String?, withRoom: Bool) -> String {
    var name = "row \(id)"
    if withRoom { name += ", room \(transport) \(room)" }
    if let postID { name += ", post \(postID)" }
    return name
  }

  /// The sentence for `count` parked messages, naming `rows` (the newest few) in brackets.
  package static func sentence(count: Int, rows: [String]) -> String {
    var sentence = "\(NameList.count(count, "message")) not sent: \(count == 1 ? "it" : "each") stopped the bot twice"
    if !rows.isEmpty {
      sentence += " (" + rows.joined(separator: "; ") + (rows.count < count ? "; …" : "") + ")"
    }
    return sentence
  }
}
