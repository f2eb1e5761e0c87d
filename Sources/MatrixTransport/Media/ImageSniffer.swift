/// What an image's first bytes say it is: its type and size in pixels, read from the file's own header rather than
/// from the server's `Content-Type` or the URL's extension (a page served as `cat.jpg` is not a picture).
struct ImageSniffer {
  struct Image: Sendable, Hashable {
    var mimeType: String
    var width: Int
    var height: Int

    /// Why the picture is too large to hand to a client, or nil when it is within the limits. A header says what it
    /// likes (a 33-byte PNG may claim 4294967295 × 4294967295): no side over `maximumSide` is accepted, and the pixel
    /// count is computed with overflow checked, so no header can stop the process.
    func excess(maxPixels: Int) -> String? {
      guard width <= ImageSniffer.maximumSide, height <= ImageSniffer.maximumSide else {
        return "\(width)×\(height) pixels, a side over \(ImageSniffer.maximumSide)"
      }
      let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
      guard !overflow, pixels <= maxPixels else {
        return "\(width)×\(height) pixels, more than the \(maxPixels) allowed"
      }
      return nil
    }
  }

  /// The longest side accepted, in pixels. JPEG and GIF store a side in 16 bits and common decoders refuse more
  /// for the other formats too, so a PNG or WebP header that claims more is no picture a client would draw.
  static let maximumSide = 65_535

  /// nil when the bytes are no PNG, JPEG, GIF or WebP the bot can measure.
  static func sniff(_ bytes: [UInt8]) -> Image? {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(bytes) }
    if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return gif(bytes) }
    if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      return webp(bytes)
    }
    return nil
  }

  private static func png(_ bytes: [UInt8]) -> Image? {
    // The IHDR chunk comes first: its width and height, big-endian, at 16 and 20.
    guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
    return measured("image/png", bigEndian(bytes, at: 16, count: 4), bigEndian(bytes, at: 20, count: 4))
  }

  private static func gif(_ bytes: [UInt8]) -> Image? {
    guard bytes.count >= 10 else { return nil }
    return measured("image/gif", littleEndian(bytes, at: 6, count: 2), littleEndian(bytes, at: 8, count: 2))
  }

  /// The first start-of-frame marker (SOF0…SOF15 but DHT, JPG and DAC) holds the height and width.
  private static func jpeg(_ bytes: [UInt8]) -> Image? {
    var offset = 2
    while offset + 9 < bytes.count {
      guard bytes[offset] == 0xFF else { return nil }
      let marker = bytes[offset + 1]
      if marker == 0xFF {
        offset += 1
        continue
      }
      if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
        offset += 2
        continue
      }
      let length = bigEndian(bytes, at: offset + 2, count: 2)
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
        return measured(
          "image/jpeg", bigEndian(bytes, at: offset + 7, count: 2), bigEndian(bytes, at: offset + 5, count: 2))
      }
      guard length >= 2 else { return nil }
      offset += 2 + length
    }
    return nil
  }

  private static func webp(_ bytes: [UInt8]) -> Image? {
    switch String(decoding: bytes[12..<16], as: UTF8.self) {
    case "VP8X":
      return measured(
        "image/webp", littleEndian(bytes, at: 24, count: 3) + 1, littleEndian(bytes, at: 27, count: 3) + 1)
    case "VP8 ":
      return measured(
        "image/webp", littleEndian(bytes, at: 26, count: 2) & 0x3FFF, littleEndian(bytes, at: 28, count: 2) & 0x3FFF)
    case "VP8L":
      let bits = littleEndian(bytes, at: 21, count: 4)
      return measured("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    default:
      return nil
    }
  }

  private static func measured(_ type: String, _ width: Int, _ height: Int) -> Image? {
    width > 0 && height > 0 ? Image(mimeType: type, width: width, height: height) : nil
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
    guard offset + count <= bytes.count else { return 0 }
    return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
  }

  private static func littleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
    guard offset + count <= bytes.count else { return 0 }
    return bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
  }
}
