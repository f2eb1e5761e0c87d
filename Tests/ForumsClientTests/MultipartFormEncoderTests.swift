import Testing

@testable import ForumsClient

@Suite("Multipart windows-1252 encoder")
struct MultipartFormEncoderTests {
  let encoder = MultipartFormEncoder(boundary: "BOUNDARY")

  @Test func contentTypeNamesTheCharsetAndBoundary() {
    #expect(encoder.contentType == "multipart/form-data; charset=windows-1252; boundary=BOUNDARY")
  }

  @Test func encodesFieldsInOrder() {
    let body = encoder.encode([FormField("action", "login"), FormField("username", "pokeyman")])
    let expected =
      "--BOUNDARY\r\nContent-Disposition: form-data; name=\"action\"\r\n\r\nlogin\r\n"
      + "--BOUNDARY\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\npokeyman\r\n"
      + "--BOUNDARY--\r\n"
    #expect(body == Array(expected.utf8))
  }

  @Test func valuesAreWindows1252WithEntitiesForTheRest() {
    let body = encoder.encode([FormField("message", "café € 😀")])
    let expected: [UInt8] =
      Array("--BOUNDARY\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\n".utf8)
      + Array("caf".utf8) + [0xE9] + Array(" ".utf8) + [0x80] + Array(" &#128512;".utf8)
      + Array("\r\n--BOUNDARY--\r\n".utf8)
    #expect(body == expected)
  }

  @Test func keysAreEscapedToo() {
    let body = encoder.encode([FormField("ключ", "v")])
    #expect(String(decoding: body, as: UTF8.self).contains("name=\"&#1082;&#1083;&#1102;&#1095;\""))
  }

  @Test func quotesAndBreaksInNamesCannotEndTheHeader() {
    let body = String(decoding: encoder.encode([FormField("a\"b\nc", "v")]), as: UTF8.self)
    #expect(body.contains("name=\"a%22b%0Ac\""))
  }

  @Test func textareasGetCRLFButInputsKeepTheirBreaks() {
    let body = String(
      decoding: encoder.encode([
        FormField("message", "one\ntwo\rthree", kind: .textarea), FormField("title", "x\ny"),
      ]), as: UTF8.self)
    #expect(body.contains("\r\n\r\none\r\ntwo\r\nthree\r\n--BOUNDARY"))
    #expect(body.contains("\r\n\r\nx\ny\r\n--BOUNDARY--"))
  }

  @Test func repeatedNamesAreAllSent() {
    let body = String(
      decoding: encoder.encode([FormField("message", ""), FormField("message", "text")]), as: UTF8.self)
    #expect(body.components(separatedBy: "name=\"message\"").count == 3)
  }

  @Test func randomBoundariesLookLikeBrowsersAndDiffer() {
    let first = MultipartFormEncoder.randomBoundary()
    #expect(first.count == 40)
    #expect(first.hasPrefix("------------------------"))
    #expect(first != MultipartFormEncoder.randomBoundary())
  }

  @Test func fieldDescriptionsHideValues() {
    #expect(!"\(FormField("password", "hunter2"))".contains("hunter2"))
    #expect(!"\(ForumCredentials(username: "u", password: "hunter2"))".contains("hunter2"))
  }
}
