import ChatBridge
import ForumModel
import Foundation

extension DiscordTransport {
  /// For `awfulbot check`: asks Discord for each room's webhook (`GET <webhook>`), which sends nothing to the
  /// channel, and says per room whether it is there and where it posts.
  package func probe() async -> [CheckResult] {
    var results: [CheckResult] = []
    let rooms = state.withLock { $0.configuration.rooms }
    for (room, settings) in rooms.sorted(by: { $0.key < $1.key }) {
      let check = "Discord \(name) room \(room)"
      guard let webhook = settings.webhook else {
        results.append(CheckResult(.skip, check, detail: "no webhook URL in this environment"))
        continue
      }
      do {
        let answer = try await request(
          .get, webhook.webhookURL, webhook: webhook, room: room, logPath: webhook.logPath())
        if answer.isSuccess {
          struct Webhook: Decodable {
            var name: String?
            var channel_id: String?
          }
          let found = try? JSONNesting.decode(Webhook.self, from: Data(answer.body))
          var detail = "\(webhook) is there"
          if let channel = found?.channel_id, DiscordWebhook.isSnowflake(channel) {
            detail += ", posting in channel \(channel)"
          }
          if let named = found?.name.map({ DiscordErrorBody.shortened(DiscordErrorBody.safeLine($0), to: 80) }),
            !named.isEmpty
          {
            detail += " as “\(named)”"
          }
          results.append(CheckResult(.pass, check, detail: detail))
        } else {
          let refusal = refusal(answer, room: room, webhook: webhook, doing: "read the webhook")
          results.append(
            CheckResult(
              .fail, check, detail: "\(refusal)",
              fix:
                "make a webhook in the Discord channel's settings (Integrations, Webhooks) and put its URL in the variable"
            ))
        }
      } catch {
        results.append(
          CheckResult(.fail, check, detail: "\(error)", fix: "check that this machine reaches discord.com"))
      }
    }
    return results
  }
}
