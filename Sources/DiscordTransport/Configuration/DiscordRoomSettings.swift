/// One Discord room of the configuration: the channel a webhook posts in, under the name rooms and messages use.
package struct DiscordRoomSettings: Sendable, Hashable {
  /// nil only in a configuration read without its secrets (`CodingUserInfoKey.secretsOptional`).
  package var webhook: DiscordWebhook?
  /// The name the messages show as their author in this room, over the transport's `username`.
  package var username: String?

  package init(webhook: DiscordWebhook?, username: String? = nil) {
    self.webhook = webhook
    self.username = username
  }
}
