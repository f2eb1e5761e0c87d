/// The JSON error codes of Discord's API the transport tells apart (Discord's "JSON Error Codes").
enum DiscordErrorCode {
  /// 404: the message is gone (deleted on Discord, or never this webhook's).
  static let unknownMessage = 10008
  /// 404: the webhook was deleted (or its id is wrong).
  static let unknownWebhook = 10015
  /// 401: the token is not the webhook's (it was reset).
  static let invalidWebhookToken = 50027
  /// 400: a field Discord refused (the content too long, an author name it does not allow).
  static let invalidFormBody = 50035
}
