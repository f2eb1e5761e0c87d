import Foundation

/// Star colour of a bookmark. Raw values are the forum's `category_id` and the `bmN` class suffix.
package enum StarColor: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  case orange = 0
  case red = 1
  case yellow = 2
  case cyan = 3
  case green = 4
  case purple = 5

  package var description: String { name }

  package var name: String {
    switch self {
    case .orange: "orange"
    case .red: "red"
    case .yellow: "yellow"
    case .cyan: "cyan"
    case .green: "green"
    case .purple: "purple"
    }
  }

  package init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
    self = match
  }
}
