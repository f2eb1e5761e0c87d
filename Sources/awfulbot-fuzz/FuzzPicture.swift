@testable import MatrixTransport

/// The `picture` target: a picture's first bytes, as a host anyone can name in `[img]` serves them, through the
/// sniffer and the size checks the fetcher applies. A header says what it likes (a 33-byte PNG may claim
/// 4294967295 × 4294967295 pixels): nothing it says may trap, and what is accepted must be a picture a client can
/// draw.
enum FuzzPicture {
  static let types: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]
  /// No limit, the default (4096 × 4096), the old default (30 megapixels), one pixel, and none allowed.
  static let limits = [Int.max, 4096 * 4096, 30_000_000, 1, 0]

  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let image = ImageSniffer.sniff(Array(bytes)) else { return }
    guard image.width > 0, image.height > 0 else {
      fatalError("a sniffed picture has a side of 0 or less: \(image.width)×\(image.height)")
    }
    guard types.contains(image.mimeType) else { fatalError("a sniffed picture has the type \(image.mimeType)") }
    let oversized = image.width > ImageSniffer.maximumSide || image.height > ImageSniffer.maximumSide
    for limit in limits {
      let excess = image.excess(maxPixels: limit)
      if oversized, excess == nil {
        fatalError("\(image.width)×\(image.height) accepted with a side over \(ImageSniffer.maximumSide)")
      }
      // Both sides are at most 65,535 here, so the product cannot overflow.
      if excess == nil, image.width * image.height > limit {
        fatalError("\(image.width)×\(image.height) accepted under a limit of \(limit) pixels")
      }
      if !oversized, excess != nil, image.width * image.height <= limit {
        fatalError("\(image.width)×\(image.height) refused under a limit of \(limit) pixels")
      }
    }
    // The thumbnail the transport describes: never grown, never a side of 0.
    let thumbnail = MatrixTransport.thumbnailSize(width: image.width, height: image.height)
    guard (1...image.width).contains(thumbnail.width), (1...image.height).contains(thumbnail.height) else {
      fatalError("\(image.width)×\(image.height) thumbnailed as \(thumbnail.width)×\(thumbnail.height)")
    }
  }
}
