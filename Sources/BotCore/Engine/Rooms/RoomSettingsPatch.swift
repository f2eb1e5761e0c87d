import ChatBridge
import Foundation

/// Some of a room's settings as they were, by name: what an undo of a settings change puts back. It is kept as the
/// settings' own JSON (`RoomSettings` is Codable), so a new setting needs no new undo case, and a stored undo reads
/// back whatever settings exist then.
package struct RoomSettingsPatch: Sendable, Hashable, Codable {
  /// Setting name → its value to put back; `.null` puts back "not set".
  package private(set) var values: [String: JSONValue]

  /// The settings of `previous` that differ in `current`.
  package init(restoring previous: RoomSettings, over current: RoomSettings) throws {
    let old = try Self.fields(of: previous)
    let new = try Self.fields(of: current)
    var values: [String: JSONValue] = [:]
    for name in Set(old.keys).union(new.keys) where old[name] != new[name] {
      values[name] = old[name] ?? .null
    }
    self.values = values
  }

  /// Whether the patch puts anything back.
  package var isEmpty: Bool { values.isEmpty }

  /// Puts the patch's values back into `settings`, leaving every other setting as it is.
  package func apply(to settings: inout RoomSettings) throws {
    var fields = try Self.fields(of: settings)
    for (name, value) in values {
      fields[name] = value == .null ? nil : value
    }
    settings = try JSONDecoder().decode(RoomSettings.self, from: JSONEncoder().encode(JSONValue.object(fields)))
  }

  private static func fields(of settings: RoomSettings) throws -> [String: JSONValue] {
    let tree = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(settings))
    guard case .object(let fields) = tree else { return [:] }
    return fields
  }
}
