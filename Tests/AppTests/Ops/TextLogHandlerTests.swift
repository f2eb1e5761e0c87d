import AwfulBotApp
import Logging
import Synchronization
import Testing

/// Text log lines carry what outsiders wrote; control characters in it are escaped, so a forum title cannot forge a
/// log line or drive the operator's terminal (issue 43).
@Suite("ops: text log lines escape control characters")
struct TextLogHandlerTests {
  final class Lines: Sendable {
    let written = Mutex<[String]>([])
    var all: [String] { written.withLock { $0 } }
  }

  static func logger(_ lines: Lines) -> Logger {
    Logger(label: "awfulbot.test") { label in
      TextLogHandler(label: label) { line in lines.written.withLock { $0.append(line) } }
    }
  }

  @Test("a title with ESC sequences, CR and LF is one line, escaped, in the message and in the metadata")
  func escapesControls() throws {
    let lines = Lines()
    let title = "Hello\u{1B}[2J\u{1B}]0;owned\u{07}\r\n2026-01-01T00:00:00+0000 error awfulbot.engine: forged"
    Self.logger(lines).info(
      "relay of \(title)",
      metadata: ["title": "\(title)", "nested": .array(["a\nb"]), "bidi": "\u{202E}txt.exe", "plain": "ok: 1/2"])
    let line = try #require(lines.all.first)
    #expect(lines.all.count == 1)
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E }, "\(line)")
    let escaped = #"Hello\e[2J\e]0;owned\u{7}\r\n2026-01-01T00:00:00+0000 error awfulbot.engine: forged"#
    #expect(line.hasSuffix("relay of " + escaped))
    #expect(line.contains("title=" + escaped))
    #expect(line.contains(#"nested=["a\nb"]"#))
    #expect(line.contains(#"bidi=\u{202e}txt.exe"#))
    #expect(line.contains("plain=ok: 1/2"), "what needs no escape reads as before")
    #expect(line.contains(" info awfulbot.test: "))
  }

  @Test("an ordinary line keeps the StreamLogHandler layout")
  func layout() throws {
    let lines = Lines()
    Self.logger(lines).warning("relayed", metadata: ["room": "#goons", "count": "2"])
    let line = try #require(lines.all.first)
    let parts = line.split(separator: " ", maxSplits: 1)
    #expect(parts.count == 2 && parts[0].count >= 19, "a timestamp first: \(line)")
    #expect(parts.last?.hasPrefix("warning awfulbot.test: count=2 room=#goons [") == true, "\(line)")
    #expect(line.hasSuffix("] relayed"))
  }
}
