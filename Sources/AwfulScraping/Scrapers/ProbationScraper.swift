import ForumModel
import Foundation

/// Reads the probation banner `div#probation_warn` that the forum adds to its normal pages while the account is on
/// probation (docs/forum-protocol.md#probation). The banner's text names the end: "You have been put on probation until
/// Jun 25, 2025 13:50." (the current wording, under the heading "TAKE A BREAK") or "…until Jan 18, 2013 22:22 CST."
/// (older pages, under "YOU ARE A HORRIBLE MONSTER ON PROBATION!").
package struct ProbationScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package init(dates: ForumDates) {
    self.dates = dates
  }

  /// The probation the page shows, or nil when it has no banner.
  package func scrape(_ document: HTMLDocument) -> Probation? {
    guard let body = document.body else { return nil }
    return scrape(banner: body.firstDescendant(where: Self.isBanner))
  }

  /// The probation a banner element (found by the caller's own walk) shows.
  package func scrape(banner: HTMLNode?) -> Probation? {
    guard let banner else { return nil }
    let text = banner.normalizedText
    let message = text.isEmpty ? "on probation" : text
    // The first "until …" that reads as a date; else the first one's words, as printed.
    let candidates = Self.endTexts(in: message)
    for raw in candidates {
      if let date = dates.date(from: raw) { return Probation(message: message, until: date, untilRaw: raw) }
    }
    return Probation(message: message, until: nil, untilRaw: candidates.first)
  }

  /// `div#probation_warn`.
  package static func isBanner(_ node: HTMLNode) -> Bool {
    node.isElement("div") && node.attribute("id", equals: "probation_warn")
  }

  /// For each "until " in the text, the words after it up to the end of that sentence ("Jun 25, 2025 13:50").
  static func endTexts(in text: String) -> [String] {
    var results: [String] = []
    var searchStart = text.startIndex
    while let range = text.range(of: "until ", options: .caseInsensitive, range: searchStart..<text.endIndex) {
      searchStart = range.upperBound
      var end = text.endIndex
      var index = range.upperBound
      while index < text.endIndex {
        let character = text[index]
        let next = text.index(after: index)
        if character == "!" || character == "?" || (character == "." && (next == text.endIndex || text[next] == " ")) {
          end = index
          break
        }
        index = next
      }
      let raw = String(text[range.upperBound..<end]).collapsingWhitespace
      if !raw.isEmpty { results.append(raw) }
    }
    return results
  }
}
