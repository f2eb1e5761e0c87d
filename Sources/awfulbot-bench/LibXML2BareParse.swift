import AwfulScraping
import CLibXML2
import ForumModel
import Foundation

/// The floor for any HTML scrape: libxml2 parsing the bytes into a tree and freeing it, with the same options and
/// encoding `HTMLDocument` uses (the captured pages are windows-1252), and nothing else.
enum LibXML2BareParse {
  static let options = HTMLDocument.parseOptions

  /// Parses and frees; returns 1 when a document was built.
  static func parse(_ data: Data, encoding: String = "windows-1252") -> Int {
    data.withUnsafeBytes { raw -> Int in
      guard let base = raw.baseAddress, raw.count > 0 else { return 0 }
      guard
        let document = htmlReadMemory(
          base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, encoding, options)
      else { return 0 }
      xmlFreeDoc(document)
      return 1
    }
  }
}
