import Foundation

/// The pictures posts link to, served by the emulator under `/images/` so the bot's image handling runs on loopback:
/// real PNG and animated GIF files of a few sizes, one whose header claims more pixels than any bot should unpack,
/// one larger than the default download limit, a page served as `fake.jpg`, `photo-<n>.png` (a different picture for
/// every number, for the images benchmark) and a 404 for anything else. Hostile ones too: headers that claim absurd
/// sizes (`absurd.png`, the 33 bytes that once stopped the bot, `absurd.jpg`, `absurd.webp`) and a picture named
/// `@room.png`. `ForumHTTPHandler` adds a slow host (`/images/slow/<seconds>/<name>`) and chains of redirects
/// (`/images/redirect/<n>/<name>`). Made here, byte by byte (stored deflate
/// blocks, uncompressed LZW), so the repository carries no binary files.
package enum FakeImages {
  package static let names = [
    "desk.png", "small.png", "cat.gif", "huge.png", "big.png", "fake.jpg", "absurd.png", "absurd.jpg", "absurd.webp",
    "@room.png",
  ]

  /// The body and content type for `/images/<name>`, nil for a 404.
  package static func file(named name: String) -> (bytes: [UInt8], contentType: String)? {
    switch name {
    case "desk.png": (desk, "image/png")
    case "small.png": (small, "image/png")
    case "cat.gif": (cat, "image/gif")
    case "huge.png": (huge, "image/png")
    case "big.png": (big, "image/png")
    case "fake.jpg": (Array("<html><body>Not a picture</body></html>".utf8), "image/jpeg")
    case "absurd.png": (absurdPNG, "image/png")
    case "absurd.jpg": (absurdJPEG, "image/jpeg")
    case "absurd.webp": (absurdWebP, "image/webp")
    case "@room.png": (desk, "image/png")
    default: photoNumber(name).map { (photo($0), "image/png") }
    }
  }

  /// The number of `photo-<n>.png`.
  private static func photoNumber(_ name: String) -> Int? {
    guard name.hasPrefix("photo-"), name.hasSuffix(".png") else { return nil }
    return Int(name.dropFirst("photo-".count).dropLast(".png".count)).flatMap { $0 >= 0 ? $0 : nil }
  }

  /// 160×120 (about 58 KB), its colours from `number`: every number its own bytes, so none is uploaded from a cache.
  package static func photo(_ number: Int) -> [UInt8] {
    png(width: 160, height: 120) { x, y in
      [UInt8(truncatingIfNeeded: x &+ number), UInt8(truncatingIfNeeded: y &* 2 &+ number / 256), 200]
    }
  }

  /// 320×240, a gradient (about 230 KB).
  package static let desk = png(width: 320, height: 240) { x, y in
    [UInt8(x * 255 / 319), UInt8(y * 255 / 239), 128]
  }
  package static let small = png(width: 16, height: 12) { x, y in [UInt8(x * 16), 40, UInt8(y * 20)] }
  /// Two frames, 48×48, looping.
  package static let cat = gif(width: 48, height: 48, frames: [1, 2])
  /// A valid header claiming 20,000 × 20,000 pixels, with almost nothing behind it.
  package static let huge =
    Array(png(width: 1, height: 1) { _, _ in [0, 0, 0] }.prefix(8)) + chunk("IHDR", header(20_000, 20_000))
    + chunk("IEND", [])
  /// 33 bytes: the signature and an IHDR chunk claiming 4294967295 × 4294967295 pixels, nothing behind it. Its
  /// width times its height does not fit in 64 bits.
  package static let absurdPNG =
    Array(png(width: 1, height: 1) { _, _ in [0, 0, 0] }.prefix(8))
    + chunk("IHDR", bigEndian(UInt32.max) + bigEndian(UInt32.max) + [8, 2, 0, 0, 0])
  /// A JPEG whose start of frame claims 65,535 × 65,535 pixels (the most its 16-bit fields hold).
  package static let absurdJPEG: [UInt8] =
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
    + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x03] + [UInt8](repeating: 0, count: 12)
  /// A WebP whose VP8X header claims 16,777,216 × 16,777,216 pixels (its 24-bit fields, plus one).
  package static let absurdWebP: [UInt8] =
    Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
    + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
  /// 6 MiB: a small picture padded with a private chunk, past the default 5 MiB limit.
  package static let big =
    Array(small.dropLast(12)) + chunk("awFl", [UInt8](repeating: 0x2A, count: 6 * 1024 * 1024))
    + chunk("IEND", [])

  // MARK: PNG

  static func png(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for y in 0..<height {
      raw.append(0)  // no filter
      for x in 0..<width { raw += pixel(x, y) }
    }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header(width, height))
      + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
  }

  private static func header(_ width: Int, _ height: Int) -> [UInt8] {
    bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]  // 8-bit RGB
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  /// zlib with stored (uncompressed) deflate blocks of at most 65,535 bytes.
  private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, data.count - offset)
      let last: UInt8 = offset + count == data.count ? 1 : 0
      out.append(last)
      out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[offset..<offset + count]
      offset += count
    } while offset < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + bigEndian(b << 16 | a)
  }

  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  // MARK: GIF

  /// An animated GIF whose frames are each filled with one colour of a four-colour palette. LZW with 3-bit codes and
  /// a clear code every few pixels, so codes never grow: valid, uncompressed.
  static func gif(width: Int, height: Int, frames: [UInt8]) -> [UInt8] {
    var out = Array("GIF89a".utf8) + littleEndian(width) + littleEndian(height) + [0xF1, 0, 0]
    out += [0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]  // black, red, blue, white
    out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]  // loop forever
    for colour in frames {
      out += [0x21, 0xF9, 4, 0, 20, 0, 0, 0]  // 0.2 s a frame
      out += [0x2C, 0, 0, 0, 0] + littleEndian(width) + littleEndian(height) + [0]
      out += [2] + subBlocks(lzw(count: width * height, colour: colour))
    }
    return out + [0x3B]
  }

  /// Minimum code size 2: clear = 4, end = 5, codes 3 bits wide; a clear before every 2 pixels keeps them 3 bits.
  private static func lzw(count: Int, colour: UInt8) -> [UInt8] {
    var codes: [Int] = []
    for index in 0..<count {
      if index % 2 == 0 { codes.append(4) }
      codes.append(Int(colour))
    }
    codes.append(5)
    var bytes: [UInt8] = []
    var buffer = 0
    var bits = 0
    for code in codes {
      buffer |= code << bits
      bits += 3
      while bits >= 8 {
        bytes.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        bits -= 8
      }
    }
    if bits > 0 { bytes.append(UInt8(buffer & 0xFF)) }
    return bytes
  }

  private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var offset = 0
    while offset < data.count {
      let count = min(255, data.count - offset)
      out.append(UInt8(count))
      out += data[offset..<offset + count]
      offset += count
    }
    return out + [0]
  }

  private static func littleEndian(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
}
