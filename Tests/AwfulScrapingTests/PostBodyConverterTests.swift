import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// The post-body converter on small bodies: every node kind, and the whitespace rules.
struct PostBodyConverterTests {
  func convert(_ html: String, base: String = "https://forums.somethingawful.com/showthread.php?threadid=1") throws
    -> [RichText]
  {
    let document = try HTMLDocument(string: "<html><body><td class=\"postbody\">\(html)</td></body></html>")
    let cell = try #require(document.body?.firstDescendant("td", class: "postbody"))
    let content = PostContent(cell)
    return PostBodyConverter(baseURL: URL(string: base)).convert(content.nodes)
  }

  /// The word-at-a-time whitespace collapse against the byte-by-byte rule, on texts made of the bytes it has to tell
  /// apart (space, the other whitespace, `!` which can look like a space after one, controls, UTF-8).
  @Test func collapsingWhitespaceMatchesTheByteRule() {
    let alphabet: [UInt8] = [0x20, 0x20, 0x09, 0x0A, 0x0C, 0x0D, 0x0B, 0x01, 0x21, 0x41, 0x61, 0xC3, 0xA9]
    var generator = SplitMix64(seed: 16)
    for length in 0..<200 {
      let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      var expected: [UInt8] = []
      var inSpace = false
      for byte in bytes {
        if [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains(byte) {
          if !inSpace { expected.append(0x20) }
          inSpace = true
        } else {
          expected.append(byte)
          inSpace = false
        }
      }
      let collapsed = bytes.withUnsafeBufferPointer { PostBodyConverter.collapsed($0) }
      #expect(collapsed == String(decoding: expected, as: UTF8.self), "\(bytes)")
    }
  }

  @Test func textAndLineBreaks() throws {
    #expect(
      try convert("  one\n  two <br>\n three<br><br><br><br>four  ") == [
        .text("one two"), .lineBreak, .text("three"), .lineBreak, .lineBreak, .text("four"),
      ])
  }

  @Test func inlineFormatting() throws {
    #expect(
      try convert("<b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <s>s</s> <strike>k</strike> <del>d</del>")
        == [
          .bold([.text("b")]), .text(" "), .bold([.text("s")]), .text(" "), .italic([.text("i")]), .text(" "),
          .italic([.text("e")]), .text(" "), .underline([.text("u")]), .text(" "), .strike([.text("s")]), .text(" "),
          .strike([.text("k")]), .text(" "), .strike([.text("d")]),
        ])
  }

  @Test func linksAndImagesAreAbsolute() throws {
    #expect(
      try convert(
        #"<a href="/member.php?userid=1">me</a> <a href="javascript:void(0)">js</a> <img src="//i.imgur.com/x.png">"#)
        == [
          .link(url: "https://forums.somethingawful.com/member.php?userid=1", [.text("me")]), .text(" js "),
          .image(url: "https://i.imgur.com/x.png"),
        ])
    #expect(
      try convert(#"<a href="http://example.com/"></a>"#) == [
        .link(url: "http://example.com/", [.text("http://example.com/")])
      ])
  }

  /// `[timg]` is `<img class="timg">` on the forum (showthread2.html has one): a thumbnail, not a plain picture.
  @Test func timgIsAThumbnail() throws {
    #expect(
      try convert(
        #"<a href="http://imgur.com/X4x7lzb"><img src="http://i.imgur.com/X4x7lzbl.jpg" alt="" class="timg" border="0"></a>"#
          + #" <img src="http://i.imgur.com/X4x7lzbl.jpg" alt="" class="img" border="0">"#)
        == [
          .link(url: "http://imgur.com/X4x7lzb", [.thumbnail(url: "http://i.imgur.com/X4x7lzbl.jpg")]), .text(" "),
          .image(url: "http://i.imgur.com/X4x7lzbl.jpg"),
        ])
  }

  @Test func smiliesOnlyOnSmilieHosts() throws {
    #expect(
      try convert(#"<img src="http://i.somethingawful.com/forumsystem/emoticons/emot-bravo.gif" title=":bravo:">"#)
        == [.smilie(code: ":bravo:", url: "http://i.somethingawful.com/forumsystem/emoticons/emot-bravo.gif")])
    #expect(
      try convert(#"<img src="https://fi.somethingawful.com/images/smilies/frown.gif" alt=":(" title="">"#)
        == [.smilie(code: ":(", url: "https://fi.somethingawful.com/images/smilies/frown.gif")])
    #expect(
      try convert(#"<img src="https://i.imgur.com/nws.png" title=":nws:">"#) == [
        .image(url: "https://i.imgur.com/nws.png")
      ])
    #expect(
      try convert(#"<img src="https://fi.somethingawful.com/flags/cc/x.gif" title="flag by: X">"#)
        == [.image(url: "https://fi.somethingawful.com/flags/cc/x.gif")])
  }

  @Test func spaceBetweenImagesIsKept() throws {
    // libxml2 drops whitespace-only text after an <img> when parsing with HTML_PARSE_NOBLANKS; the document does not.
    let smilie = #"<img src="http://fi.somethingawful.com/images/smilies/emot-v.gif" title=":v:">"#
    let url = "http://fi.somethingawful.com/images/smilies/emot-v.gif"
    #expect(
      try convert("\(smilie) \(smilie)\n<b>x</b>") == [
        .smilie(code: ":v:", url: url), .text(" "), .smilie(code: ":v:", url: url), .text(" "), .bold([.text("x")]),
      ])
  }

  @Test func nestedQuotesWithAuthorsAndPostIDs() throws {
    let html = """
      <div class="bbc-block"><h4><a class="quote_link" href="/showthread.php?goto=post&postid=2#post2">Outer posted:</a></h4>
      <blockquote><div class="bbc-block"><h4><a class="quote_link" href="/showthread.php?goto=post&postid=1#post1">Inner posted:</a></h4>
      <blockquote>deep</blockquote></div>
      shallow</blockquote></div>reply
      """
    #expect(
      try convert(html) == [
        .quote(
          author: "Outer", postID: "2",
          [.quote(author: "Inner", postID: "1", [.text("deep")]), .text("shallow")]),
        .text("reply"),
      ])
  }

  @Test func anonymousQuote() throws {
    #expect(
      try convert(#"<div class="bbc-block"><h4>quote:</h4><blockquote>said</blockquote></div>"#)
        == [.quote(author: nil, postID: nil, [.text("said")])])
  }

  @Test func spoilerCodeListVideo() throws {
    let html = """
      <span class="bbc-spoiler">the <b>end</b></span>
      <div class="bbc-block pre"><h5>code:</h5><blockquote><pre>a &lt; b
        c</pre></blockquote></div>
      <ol><li>x</li><li>y</li></ol>
      <div class="bbcode_video"><object><param name="movie" value="http://www.youtube.com/v/abc"></object></div>
      """
    #expect(
      try convert(html) == [
        .spoiler([.text("the "), .bold([.text("end")])]),
        .code("a < b\n  c"),
        .list([[.text("x")], [.text("y")]]),
        .video(url: "http://www.youtube.com/v/abc"),
      ])
  }

  @Test func contentMarkersAndEditNote() throws {
    let document = try HTMLDocument(
      string: """
        <html><body><table><tr><td class="postbody">outside<!-- BeginContentMarker --> inside <!-- EndContentMarker -->
        <p class="editedby"><span>X fucked around with this message at Jan  1, 2014 around 00:16</span></p></td></tr></table>
        </body></html>
        """)
    let cell = try #require(document.body?.firstDescendant("td", class: "postbody"))
    let content = PostContent(cell)
    #expect(PostBodyConverter(baseURL: nil).convert(content.nodes) == [.text("inside")])
    #expect(content.editNote == "X fucked around with this message at Jan 1, 2014 around 00:16")
    #expect(HTMLNode.serialize(content.nodes).trimmed == "inside")
  }

  @Test func scriptsAndStylesVanish() throws {
    #expect(try convert("a<script>alert(1)</script><style>b{}</style>b") == [.text("ab")])
  }

  @Test func unknownWrappersKeepTheirChildren() throws {
    #expect(try convert(#"<font color="red">red</font> <span class="x">y</span>"#) == [.text("red y")])
    #expect(
      try convert(#"<div class="bbc-center">centered</div>after"#) == [.paragraph([.text("centered")]), .text("after")])
  }
}

/// A small deterministic generator, so the generated cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
