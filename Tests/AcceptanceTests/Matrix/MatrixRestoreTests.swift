import AwfulBotApp
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 35, restores that keep encryption sound: a backup is taken while the bot runs; then a post is relayed and
  /// Alice has the bot post a reply (`!reply` + `!confirm`). The backup is restored and the bot started on it. Its
  /// first sync reads nothing old as a command (the reply is on the forum once), the relay sent after the backup is
  /// not sent again, and every relay after the restore is readable by Alice's client with Element's policy, with no
  /// Megolm message index used twice.
  @Test("restored from a backup: no command runs twice, nothing is sent twice, every relay after it decrypts")
  func restoreKeepsEncryptionSound() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      let backup = world.directory.appendingPathComponent("backup.sqlite").path
      var secret = ""
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        secret = try await alice.createEncryptedRoom(name: "restore", invite: [botID])
        try await bot.waitUntilJoined(secret)
        try await bot.engine.subscriptions.watch(threadID: "3600001", room: bot.room(secret))
        await bot.pollBookmarks()
        _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "Before the backup.")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        _ = try DatabaseBackup.backup(databasePath: world.databasePath, to: backup)

        _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "After the backup.")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        try await alice.say("!reply 3600001 Posted once, whatever happens.", in: secret)
        _ = try await alice.messages(in: secret, from: botID, containing: "!confirm")
        try await alice.say("!confirm", in: secret)
        _ = try await alice.messages(in: secret, from: botID, containing: "Posted to")
      }
      let replies = await world.forumState.thread(3_600_001)?.postIDs.count

      let outcome = try BackupRestore.restore(backup: backup, databasePath: world.databasePath)
      #expect(outcome.carryOverProblem == nil && outcome.carriedOver >= 1, "\(outcome)")

      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "After the restore.")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        #expect(
          await world.forumState.thread(3_600_001)?.postIDs.count == (replies ?? 0) + 1,
          "the reply was posted once; only the new post was added")
        let history = try await alice.history(in: secret, from: botID)
        let relays = history.events.filter { $0.content["msgtype"] == "m.notice" && $0.replaces == nil }
        #expect(history.events.allSatisfy { $0.decrypted && $0.secure }, "\(history.events)")
        #expect(history.indexReuse == 0, "no Megolm index used for two messages")
        for text in ["Before the backup.", "After the backup.", "After the restore."] {
          #expect(relays.filter { $0.body?.contains(text) ?? false }.count == 1, "\(text) once: \(relays)")
        }
        #expect(
          !relays.contains { $0.body?.contains("— awfulbot,") ?? false },
          "the bot's own reply is not relayed back: the note of it carried over")
        let before = relays.first { $0.body?.contains("Before the backup.") ?? false }
        let restored = relays.first { $0.body?.contains("After the restore.") ?? false }
        #expect(
          restored?.sessionID != nil && restored?.sessionID != before?.sessionID && restored?.index == 0,
          "the first relay after the restore starts a new session")
      }
    }
  }
}
