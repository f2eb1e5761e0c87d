import BotCore
import ChatBridge
import FakeForum
import Foundation
import Logging

/// `awfulbot demo`: the forum emulator on loopback with the demo seed, the bot logged in to it with the console as
/// its chat room (subscribed to the bookmarks, the announcements and the Leper's Colony), and an activity generator
/// posting every few seconds. Lines typed (or piped) on stdin are commands from a local admin.
package func runDemo(
  _ options: DemoOptions, input: FileHandle = .standardInput,
  write: @escaping @Sendable (String) -> Void = ConsoleTransport.standardOutput
) async throws {
  let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
  let baseURL = try await forum.start()
  let dataDirectory = try options.dataDirectory ?? makeTemporaryDirectory()
  // A folder the demo made for itself goes when it ends; one given with --data is the user's and stays.
  defer {
    if options.dataDirectory == nil { try? FileManager.default.removeItem(atPath: dataDirectory) }
  }
  let speed = options.effectiveSpeed

  let configuration = AppConfiguration(
    forum: .init(
      baseURL: baseURL, username: FakeForumSeed.botUsername,
      password: SecretValue(literal: FakeForumSeed.botPassword), timeZone: TimeZone(identifier: "America/Chicago"),
      requestSpacingSeconds: 0.2, announcementsForumID: "273"),
    dataDirectory: dataDirectory,
    polling: .init(
      bookmarksSeconds: 5, announcementsSeconds: 15, forumsSeconds: 30, privateMessagesSeconds: 10,
      lepersSeconds: 20),
    commands: .init(prefix: "!", botName: "awfulbot"),
    transports: [.console(name: "console")],
    rooms: [
      .init(transport: "console", room: "console", subscriptions: [.bookmarks(stars: []), .announcements, .lepers])
    ],
    privateMessages: .init(rooms: [.init(transport: "console", room: "console")]))

  let console = ConsoleTransport(name: "console", input: input, write: write)
  // The console chat owns the terminal: no progress line over it.
  let application = try BotApplication(
    configuration: configuration, transports: [console], progress: ProgressReporter(enabled: false))
  write(
    """
    AwfulBot demo
      forum emulator: \(baseURL.absoluteString) (bot account \(FakeForumSeed.botUsername))
      data:           \(dataDirectory)
      this console is a chat room subscribed to the bot's bookmarks, the announcements and the Leper's Colony,
      and told about private messages to the bot. Send one from another terminal:
        curl -d '{"to":"\(FakeForumSeed.botUsername)","from":"Pickled Tink","title":"Hi","body":"Hello!"}' \(baseURL.appendingPathComponent("_fake/pms").absoluteString)
      New posts appear every \(Int((8 / speed).rounded())) s or so. Try: !help  !bookmarks  !status  !subscriptions
      !latest 3600002 2  !watch 3600005  !mode summary 2  !why 3600001  !pms  — Ctrl-C to stop.

    """)
  try await application.seedRooms()
  let generator = ForumActivityGenerator(
    state: forum.state, interval: 8 / speed, announcementAfter: 12 / speed, report: write)
  try await application.run(
    extraServices: [generator], shutdownAfter: options.shutdownAfter)
  await forum.stop()
  write("demo finished")
}

private func makeTemporaryDirectory() throws -> String {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "awfulbot-demo-\(UUID().uuidString.prefix(8))", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.path
}
