import AwfulScraping
import Foundation
import Testing

/// Loads a captured page for the extra scrapers' conformance tests.
enum ExtraFixture {
  static func document(_ name: String) throws -> HTMLDocument {
    try HTMLDocument(data: Fixtures.data(name), url: Fixtures.url(name))
  }

  static func date(_ epoch: TimeInterval) -> Date { Date(timeIntervalSince1970: epoch) }
}
