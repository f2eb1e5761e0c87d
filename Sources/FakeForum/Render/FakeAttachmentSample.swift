/// Hostile attachments for tests (`POST /_fake/attachments {"sample": …}`): what a forum attachment can be besides
/// a picture. The forum checks uploads, but what it serves under a number is still outside bytes to the bot.
package enum FakeAttachmentSample: String, Sendable, CaseIterable {
  /// A web page where the file should be (a login or interstitial page served under the attachment's number).
  case page
  /// A PNG whose header claims 20,000 × 20,000 pixels, with almost nothing behind it (`FakeImages.huge`).
  case huge
  /// 33 bytes claiming 4294967295 × 4294967295 pixels (`FakeImages.absurdPNG`).
  case absurd
  /// Text served as `image/png`: the type says picture, the bytes do not.
  case notAPicture

  package var bytes: [UInt8] {
    switch self {
    case .page: Array(Self.pageHTML.utf8)
    case .huge: FakeImages.huge
    case .absurd: FakeImages.absurdPNG
    case .notAPicture: Array("This is not a picture, whatever its type says. @room".utf8)
    }
  }

  package var contentType: String {
    switch self {
    case .page: "text/html; charset=windows-1252"
    case .huge, .absurd, .notAPicture: "image/png"
    }
  }

  /// A page that is no forum error page: the reader must still not take it for the file.
  static let pageHTML = """
    <!DOCTYPE html>
    <html><head><title>Please wait</title></head>
    <body><h1>@room Checking your browser</h1><p>This attachment is on its way.</p></body></html>
    """
}
