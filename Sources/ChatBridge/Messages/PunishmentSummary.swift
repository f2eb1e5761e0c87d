/// Leper's Colony entries told as a count: those past a room's replay cap after the bot was away.
package struct PunishmentSummary: Sendable, Hashable, Codable {
  /// How many entries this message counts.
  package var count: Int
  /// The punished users in the order the entries were given (repeats allowed; renderers list each once).
  package var users: [String]
  /// The Leper's Colony's first page, where a reader finds them.
  package var link: String

  package init(count: Int, users: [String], link: String) {
    self.count = count
    self.users = users
    self.link = link
  }
}
