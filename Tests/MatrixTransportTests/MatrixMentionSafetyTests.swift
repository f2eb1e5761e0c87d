import Testing

@testable import MatrixTransport

@Suite("Matrix mention defusing and HTML allow-list")
struct MatrixMentionSafetyTests {
  let joiner = "\u{2060}"

  @Test("@room and user ids in the plain body no longer form mentions")
  func plainBody() {
    let text = MatrixMentionSafety.defuseText("hey @room, ask @alice:example.org or mail bob@example.org")
    #expect(!text.contains("@room"))
    #expect(text.contains("@\(joiner)room"))
    #expect(text.contains("@\(joiner)alice:example.org"))
    #expect(text.contains("bob@example.org"), "e-mail addresses are left alone")
  }

  @Test("pills become plain text; ordinary links stay")
  func pills() {
    let html =
      #"<p>by <a href="https://matrix.to/#/@alice:example.org">Alice</a> in "#
      + #"<a href="matrix:r/goons:example.org">#goons</a>, see <a href="https://forums.example/t?a=1&amp;b=2">this</a></p>"#
    let safe = MatrixMentionSafety.defuseHTML(html)
    #expect(!safe.contains("matrix.to"))
    #expect(!safe.contains("matrix:r"))
    #expect(safe.contains("by Alice in #goons"))
    #expect(safe.contains(#"<a href="https://forums.example/t?a=1&amp;b=2">this</a>"#))
  }

  @Test("@room in HTML text, also written as an entity, is defused; attributes are untouched")
  func htmlText() {
    let safe = MatrixMentionSafety.defuseHTML(#"<b>@room</b> &#64;room <a href="https://x.example/@user">@user</a>"#)
    #expect(!safe.contains("@room"))
    #expect(safe.contains(#"href="https://x.example/@user""#))
    #expect(safe.contains(">@\(joiner)user</a>"))
  }

  @Test("tags and attributes outside the allow-list are dropped, their text kept")
  func allowList() {
    let html =
      #"<p onclick="x()">hi<script>alert(1)</script><img src="https://t.example/p.gif"><a href="javascript:alert(1)">click</a>"#
      + #"<span data-mx-spoiler="">secret</span><font color="red">red</font></p>"#
    let safe = MatrixMentionSafety.defuseHTML(html)
    #expect(safe == #"<p>hialert(1)click<span data-mx-spoiler="">secret</span>red</p>"#)
  }

  @Test("defusing twice changes nothing")
  func idempotent() {
    let html = #"<p>@room <a href="https://matrix.to/#/@a:b">a</a> <i>@bob:x</i></p>"#
    let once = MatrixMentionSafety.defuseHTML(html)
    #expect(MatrixMentionSafety.defuseHTML(once) == once)
    let text = MatrixMentionSafety.defuseText("@room @bob:x")
    #expect(MatrixMentionSafety.defuseText(text) == text)
  }
}
