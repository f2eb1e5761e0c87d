import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import FakeDiscord
import FakeForum
import Foundation
import Logging
import Testing

/// The Discord transport wired as a plugin, end to end: a config file naming a `discord` transport (its webhook from
/// the environment), the application built from it, forum posts relayed through the outbox to the loopback Discord
/// receiver with each message id stored as the row's receipt, and a forum edit and deletion followed there.
@Suite("Loopback Discord")
struct LoopbackDiscordTests {
  @Test("a post goes to the Discord webhook as written, and its edit and deletion follow it there")
  func relayEditAndDeletion() async throws {
    try await withLoopbackWorld { world in
      let discord = FakeDiscordServer()
      let base = try await discord.start()
      defer { Task { await discord.stop() } }
      let webhook = base + (await discord.state.addWebhook(name: "Forum relay"))
      let webhookID = String(webhook.split(separator: "/").dropLast().last!)
      let token = String(webhook.split(separator: "/").last!)
      let directory = URL(fileURLWithPath: world.databasePath).deletingLastPathComponent()
      let path = directory.appendingPathComponent("config.json").path
      let config: [String: Any] = [
        "forum": [
          "baseURL": world.baseURL.absoluteString, "username": FakeForumSeed.botUsername,
          "password": FakeForumSeed.botPassword, "timeZone": "America/Chicago",
        ],
        "dataDirectory": directory.path,
        "transports": [
          ["type": "discord", "name": "discord", "rooms": ["general": ["webhook": ["env": "TEST_DISCORD_WEBHOOK"]]]]
        ],
        "rooms": [["transport": "discord", "room": "general", "subscriptions": ["bookmarks"], "mode": "each"]],
        "metrics": ["enabled": false],
      ]
      try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
      var configuration = try AppConfiguration.load(path: path, environment: ["TEST_DISCORD_WEBHOOK": webhook])
      #expect(!"\(configuration)".contains(token))
      configuration.forum = .emulator(world.baseURL, requestSpacingSeconds: 0, requestTimeoutSeconds: 20)
      configuration.polling = .init(bookmarksSeconds: 0.2, announcementsSeconds: 60, forumsSeconds: 60)
      let transports = try TransportFactory.makeTransports(for: configuration)
      #expect(transports.map(\.name) == ["discord"])
      let application = try BotApplication(
        configuration: configuration, transports: transports, databasePath: world.databasePath, logger: .quiet())
      let database = try BotDatabase(path: world.databasePath)
      // As `awfulbot run` does before it runs the services.
      try await application.seedRooms()
      func rows() async throws -> [OutboxRecord] { try await database.read { try $0.allOutboxRows() } }
      func delivered(_ kind: OutboxKind, count: Int) async throws -> Bool {
        try await rows().filter { $0.kind == kind && $0.state == .delivered }.count >= count
      }

      try await application.whileRunning {
        // The room is seeded and its bookmarks read once (nothing old is relayed) before the posts come.
        try await waitUntil("the bookmarks are read") {
          await !world.requests(to: "/bookmarkthreads.php").isEmpty
        }
        try await Task.sleep(for: .milliseconds(500))
        let kept = try await world.state.addPost(
          thread: LoopbackWorld.devThread, author: LoopbackWorld.poster,
          body: "Hello @everyone and <@123>, **really** [click](https://evil.example)")
        let gone = try await world.state.addPost(
          thread: LoopbackWorld.devThread, author: LoopbackWorld.poster, body: "Soon to be gone.")
        try await waitUntil("both posts are relayed", timeout: .seconds(60)) {
          try await delivered(.post, count: 2)
        }
        let shown = await discord.state.shown(webhookID: webhookID)
        #expect(shown.count == 2)
        let relay = try #require(shown.first { $0.content.contains("really") })
        #expect(relay.allowedMentionsParse == [])
        #expect(relay.username == nil)
        #expect(relay.reading.text.contains("Hello @everyone and <@123>, **really** [click](https://evil.example)"))
        #expect(relay.reading.unexpectedEffects(allowing: ["bold"]) == [])
        let receipts = try await rows().filter { $0.kind == .post }.compactMap(\.receipt)
        #expect(Set(receipts) == Set(shown.map(\.id)))

        try await world.state.editPost(kept, body: .bbcode("The second version, with a fix."))
        try await world.state.deletePost(gone)
        // New posts: the bookmarks then show the thread moved, and its page (with the edit) is read again.
        for text in ["Something new.", "And more."] {
          _ = try await world.state.addPost(thread: LoopbackWorld.devThread, author: LoopbackWorld.poster, body: text)
        }
        try await waitUntil("the edit and the removal are sent", timeout: .seconds(60)) {
          let edited = try await delivered(.edit, count: 1)
          let removed = try await delivered(.redaction, count: 1)
          return edited && removed
        }
        let after = await discord.state.shown(webhookID: webhookID)
        let edited = try #require(after.first { $0.id == relay.id })
        #expect(edited.reading.text.contains("The second version, with a fix."))
        #expect(edited.history.count == 1)
        #expect(!after.contains { $0.content.contains("Soon to be gone") })
      }
      await discord.stop()
    }
  }
}
