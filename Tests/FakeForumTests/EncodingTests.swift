import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum encoding and BBCode")
struct EncodingTests {
  @Test func encodesWindows1252AndEntities() {
    #expect(Windows1252.encodeHTML("é€“😀") == [0xE9, 0x80, 0x93] + Array("&#128512;".utf8))
  }

  @Test func decodesWindows1252AndEntitiesBack() {
    let bytes: [UInt8] = [0x43, 0x61, 0x80, 0x20, 0x93, 0x94] + Array("&#128512;&#x1F600;&amp;".utf8)
    #expect(Windows1252.decodeNumericEntities(Windows1252.decode(bytes)) == "Ca€ “”😀😀&amp;")
  }

  @Test func multipartFieldsKeepOrderAndRepeatedNames() {
    let body = Array(
      "--XYZ\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\n\r\n--XYZ\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nline1\r\nline2 &#9731;\r\n--XYZ\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\u{1}\u{2}\r\n--XYZ--\r\n"
        .utf8)
    let fields = FormDecoder.decodeBody(body, contentType: "multipart/form-data; charset=windows-1252; boundary=XYZ")
    #expect(fields.map(\.name) == ["message", "message", "attachment"])
    #expect(fields[0].value == "")
    #expect(fields[1].value == "line1\r\nline2 ☃")
    #expect(fields[2].value == "a.png (2 bytes)")
  }

  @Test func urlEncodedAndQueryDecoding() {
    #expect(FormDecoder.decodeQuery("a=1&b=x+y%20z&c=%C3%A9").map(\.value) == ["1", "x y z", "é"])
    let form = FormDecoder.decodeBody(Array("q=caf%E9".utf8), contentType: "application/x-www-form-urlencoded")
    #expect(form.first?.value == "café")
  }

  @Test func bbcodeQuotesSpoilersImagesLinksAndText() {
    let html = BBCodeRenderer.html(
      "[quote=\"Zoë\" post=\"42\"]\nhi\n[/quote]\n[spoiler]secret[/spoiler] [img]http://x/y.png[/img] [url=http://a.b]link[/url] <b> http://c.d/e."
    )
    #expect(
      html.contains(
        "<div class=\"bbc-block\"><h4><a class=\"quote_link\" href=\"/showthread.php?goto=post&amp;postid=42#post42\" rel=\"nofollow\">Zoë posted:</a></h4><blockquote>hi</blockquote></div>"
      ))
    #expect(html.contains("<span class=\"bbc-spoiler\""))
    #expect(html.contains("<img src=\"http://x/y.png\" alt=\"\" class=\"img\" border=\"0\">"))
    #expect(html.contains("<a href=\"http://a.b\" target=\"_blank\" rel=\"nofollow\">link</a>"))
    #expect(html.contains("&lt;b&gt;"))
    #expect(html.contains("<a href=\"http://c.d/e\" target=\"_blank\" rel=\"nofollow\">http://c.d/e</a>."))
  }

  @Test func unbalancedTagsStayLiteral() {
    #expect(BBCodeRenderer.html("[b]bold [i]x[/b] [/quote]") == "<b>bold [i]x</b> [/quote]")
  }

  @Test func forumDatesPadDaysWithSpaces() throws {
    let chicago = try #require(TimeZone(identifier: "America/Chicago"))
    let date = Date(timeIntervalSince1970: 1_357_608_060)  // Jan 7, 2013 19:21 CST
    let twentyFour = ForumDateFormatter(timeZone: chicago, clock: .twentyFourHour)
    #expect(twentyFour.threadListDate(date) == "19:21 Jan  7, 2013")
    #expect(twentyFour.postDate(date) == "Jan  7, 2013 19:21")
    #expect(twentyFour.announcementDate(date) == "Jan 07, 2013")
    let twelve = ForumDateFormatter(timeZone: chicago, clock: .twelveHour)
    #expect(twelve.postDate(date) == "Jan  7, 2013  7:21 PM")
    #expect(twelve.threadListDate(date) == "7:21 PM Jan  7, 2013")
  }
}
