import ChatBridge
import Foundation

/// What differs between the running configuration and a reloaded one, sorted into what the bot applies while it
/// runs and the keys that need a restart (named as the config file writes them, `forum.baseURL`,
/// `transports[irc].server`). Computed from the written forms, so a key added to the config later is a restart key
/// until someone makes it live, never silently ignored.
package struct ConfigurationChanges: Sendable, Hashable {
  package var roles = false
  /// `polling` keys whose change reaches the next poll (every interval).
  package var pollIntervals = false
  package var metrics = false
  package var rooms = false
  package var privateMessageRooms = false
  /// Transports (by name) with a changed key their kind applies live.
  package var reconfiguredTransports: [String] = []
  /// Dotted keys that changed and take effect at the next start only.
  package var restartKeys: [String] = []

  package var isEmpty: Bool {
    !roles && !pollIntervals && !metrics && !rooms && !privateMessageRooms && reconfiguredTransports.isEmpty
      && restartKeys.isEmpty
  }

  /// The names of what changed, for the log line that closes a reload.
  package var summary: [String] {
    var names: [String] = []
    if roles { names.append("roles") }
    if pollIntervals { names.append("polling") }
    if metrics { names.append("metrics") }
    if rooms { names.append("rooms") }
    if privateMessageRooms { names.append("privateMessages.rooms") }
    names += reconfiguredTransports.map { "transports[\($0)]" }
    return names
  }

  /// `polling` keys that are not intervals: the replay cap is copied into each room when it is created.
  private static let restartPollingKeys: Set<String> = ["replayCap"]

  package init(from old: AppConfiguration, to new: AppConfiguration) {
    let before = Self.writtenForm(old)
    let after = Self.writtenForm(new)
    for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
      switch key {
      case "roles": roles = true
      case "metrics": metrics = true
      case "rooms": rooms = true
      case "polling":
        for sub in Self.changedKeys(before[key], after[key]) {
          if Self.restartPollingKeys.contains(sub) {
            restartKeys.append("polling.\(sub)")
          } else {
            pollIntervals = true
          }
        }
      case "privateMessages":
        for sub in Self.changedKeys(before[key], after[key]) {
          if sub == "rooms" { privateMessageRooms = true } else { restartKeys.append("privateMessages.\(sub)") }
        }
      case "transports": compareTransports(old.transports, new.transports)
      default:
        let keys = Self.changedKeys(before[key], after[key])
        restartKeys += keys.isEmpty ? [key] : keys.map { "\(key).\($0)" }
      }
    }
  }

  /// Transports are matched by name: one added, removed or changed in type needs a restart; within one, each changed
  /// key is live when its kind says so.
  private mutating func compareTransports(_ old: [TransportSettings], _ new: [TransportSettings]) {
    let before = Dictionary(old.map { ($0.resolvedName, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(new.map { ($0.resolvedName, $0) }, uniquingKeysWith: { first, _ in first })
    for name in Set(before.keys).union(after.keys).sorted() {
      guard let previous = before[name], let next = after[name], previous.type == next.type else {
        restartKeys.append("transports[\(name)]")
        continue
      }
      let live = TransportKind.of(next.type).liveOptions
      var reconfigured = false
      for key in Set(previous.options.keys).union(next.options.keys).sorted()
      where previous.options[key] != next.options[key] && !ConfigReader.isComment(key) {
        if live.contains(key) { reconfigured = true } else { restartKeys.append("transports[\(name)].\(key)") }
      }
      if reconfigured { reconfiguredTransports.append(name) }
    }
  }

  /// The keys of two objects whose values differ (comments aside); empty when either is not an object.
  private static func changedKeys(_ old: JSONValue?, _ new: JSONValue?) -> [String] {
    guard case .object(let before)? = old ?? .object([:]), case .object(let after)? = new ?? .object([:]) else {
      return []
    }
    return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] && !ConfigReader.isComment($0) }
      .sorted()
  }

  /// The top-level sections as the config file would write them.
  private static func writtenForm(_ configuration: AppConfiguration) -> [String: JSONValue] {
    guard let data = try? JSONEncoder().encode(configuration),
      case .object(let sections)? = try? JSONDecoder().decode(JSONValue.self, from: data)
    else { return [:] }
    return sections
  }
}
