import Foundation

/// The account is on probation: the forum adds the banner `div#probation_warn` to its normal pages. It is a state,
/// not an error: pages are read as usual; only posting (replies, private messages) is refused until it ends.
package struct Probation: Sendable, Hashable, Codable {
  /// The banner's text, whitespace collapsed ("YOU ARE A HORRIBLE MONSTER ON PROBATION! You have been put on
  /// probation until Jun 25, 2025 13:50. …").
  package var message: String
  /// When it ends, when the banner says so ("… until Jun 25, 2025 13:50."), read in the forum's time zone.
  package var until: Date?
  /// The end as the banner prints it ("Jun 25, 2025 13:50"), when it names one.
  package var untilRaw: String?

  package init(message: String, until: Date? = nil, untilRaw: String? = nil) {
    self.message = message
    self.until = until
    self.untilRaw = untilRaw
  }
}
