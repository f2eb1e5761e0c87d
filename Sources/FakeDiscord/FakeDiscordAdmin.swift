import Foundation

/// The receiver's admin API under `/_fake/` (see `FakeDiscordServer`).
enum FakeDiscordAdmin {
  static func handle(method: String, path: String, body: [UInt8], baseURL: String, state: FakeDiscordState) async
    -> FakeDiscordResponse
  {
    switch (method, path) {
    case ("POST", "/_fake/webhooks"):
      let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
      let webhookPath = await state.addWebhook(name: object["name"] as? String ?? "AwfulBot")
      return .json(200, ["url": baseURL + webhookPath])
    case ("GET", "/_fake/messages"):
      let messages = await state.messages
      let data = (try? JSONEncoder().encode(messages)) ?? Data("[]".utf8)
      return FakeDiscordResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
    case ("GET", "/_fake/requests"):
      let requests = await state.requests
      let data = (try? JSONEncoder().encode(requests)) ?? Data("[]".utf8)
      return FakeDiscordResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
    case ("POST", "/_fake/fault"):
      guard let fault = try? JSONDecoder().decode(FakeDiscordFault.self, from: Data(body)) else {
        return .error(400, code: 0, message: "expected a FakeDiscordFault as JSON")
      }
      await state.setFault(fault)
      return FakeDiscordResponse(status: 204)
    case ("DELETE", "/_fake/fault"):
      await state.setFault(nil)
      return FakeDiscordResponse(status: 204)
    default:
      return .error(404, code: 0, message: "no such admin path")
    }
  }
}
