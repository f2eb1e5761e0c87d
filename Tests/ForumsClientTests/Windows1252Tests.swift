import Testing

@testable import ForumsClient

@Suite("Windows-1252 escaping")
struct Windows1252Tests {
  @Test func asciiAndLatin1MapToThemselves() {
    #expect(Windows1252.encode("abc") == [0x61, 0x62, 0x63])
    #expect(Windows1252.encode("Québec") == [0x51, 0x75, 0xE9, 0x62, 0x65, 0x63])
    #expect(Windows1252.encode("\u{A0}ÿ") == [0xA0, 0xFF])
  }

  @Test func typographicExtrasUseTheC1Range() {
    #expect(Windows1252.encode("€") == [0x80])
    #expect(Windows1252.encode("“quoted”") == [0x93] + Array("quoted".utf8) + [0x94])
    #expect(Windows1252.encode("—™Ÿ") == [0x97, 0x99, 0x9F])
  }

  @Test func charactersOutsideBecomeDecimalEntities() {
    #expect(Windows1252.escaped("😀") == "&#128512;")
    #expect(Windows1252.escaped("Привет") == "&#1055;&#1088;&#1080;&#1074;&#1077;&#1090;")
    #expect(Windows1252.escaped("日本") == "&#26085;&#26412;")
    #expect(Windows1252.encode("a😀") == Array("a&#128512;".utf8))
  }

  @Test func c1ControlsAndUnassignedCodePointsAreEscaped() {
    // U+0081 is a control character, not the unassigned byte 0x81.
    #expect(Windows1252.escaped("\u{81}") == "&#129;")
    #expect(Windows1252.byte(for: "\u{9D}") == nil)
  }

  @Test func combiningSequencesEscapeEachScalar() {
    // A flag is two regional indicators; each is sent on its own, which the forum reassembles.
    #expect(Windows1252.escaped("🇫🇷") == "&#127467;&#127479;")
    // e + combining acute: "e" fits, the accent does not.
    #expect(Windows1252.escaped("e\u{301}") == "e&#769;")
  }
}

@Suite("Line breaks")
struct LineBreaksTests {
  @Test func everyBreakBecomesCRLF() {
    #expect(LineBreaks.crlf("a\nb") == "a\r\nb")
    #expect(LineBreaks.crlf("a\rb") == "a\r\nb")
    #expect(LineBreaks.crlf("a\r\nb") == "a\r\nb")
    #expect(LineBreaks.crlf("a\n\nb\r\r") == "a\r\n\r\nb\r\n\r\n")
    #expect(LineBreaks.crlf("\n\r") == "\r\n\r\n")
    #expect(LineBreaks.crlf("no breaks") == "no breaks")
  }
}
