/// The receipt of a message Discord carries as one or more messages: their ids in order, joined by commas
/// (`1234,1235`), so an edit and a removal reach every part. Ids are snowflakes (digits) or the receipt is refused:
/// a receipt ends up in a URL path.
struct DiscordReceipt: Sendable, Hashable {
  var messageIDs: [String]

  init(messageIDs: [String]) { self.messageIDs = messageIDs }

  init?(_ receipt: String) {
    let ids = receipt.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !ids.isEmpty, ids.count <= 100, ids.allSatisfy(DiscordWebhook.isSnowflake) else { return nil }
    messageIDs = ids
  }

  var text: String { messageIDs.joined(separator: ",") }
}
