import BotCore
import Foundation
import Testing

/// Every chat line the command fuzzer (`scripts/fuzz commands`) found crashing is kept in `FuzzRegressions/commands`
/// next to this file, as the fuzzer wrote it (the first byte picks the parser and whether the line came in a direct
/// conversation), and goes through the parser and what the handlers apply to the arguments again: none may trap.
/// `many-words-64k` is a Matrix-sized line of 32,000 words, which once cost a gigabyte (each argument kept its own
/// copy of the rest of the line; now a view into it).
/// The folder is read from the source tree, so a kept input is replayed without editing the package.
struct CommandFuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("FuzzRegressions/commands")

  static let names: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()

  static let parsers = [
    CommandParser(prefix: "!", botNames: ["AwfulBot"]), CommandParser(prefix: "..", botNames: ["bot", "b"]),
    CommandParser(prefix: "", botNames: ["awfulbot"]),
  ]

  @Test(arguments: Self.names)
  func noCommandHandlingTraps(on name: String) throws {
    let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    let first = try #require(bytes.first)
    let line = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let parser = Self.parsers[Int(first) % Self.parsers.count]
    guard case .success(let input)? = parser.parse(line, isDirect: first & 0x80 != 0) else { return }
    let count = input.arguments.count
    for index in Set([0, 1, 2, max(count - 1, 0), count, count + 1]) { _ = input.rest(from: index) }
    let values = input.arguments.map(\.value)
    _ = try? ArgumentScanner(values, flags: ["op-only"], valueOptions: ["author", "keyword", "not-author", "backfill"])
    for value in values {
      _ = ThreadReference.parse(value, baseURL: URL(string: "https://forums.somethingawful.com/")!)
      _ = DurationText.parse(value)
    }
  }
}
