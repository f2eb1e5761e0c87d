import ChatBridge
import Foundation

/// What differs between the running configuration and a reloaded one, sorted into what the bot applies while it
/// runs and the keys that need a restart (named as the config file writes them, `forum.baseURL`,
/// `transports[irc].server`). Compares the typed sections key by key (`ConfigSection`: each section's `CodingKeys`
/// and their values), so a key added to a section later is a restart key until someone makes it live, never
/// silently ignored.
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

  package init(from old: AppConfiguration, to new: AppConfiguration) {
    let sections = AppConfiguration.CodingKeys.allCases.sorted { $0.stringValue < $1.stringValue }
    for section in sections where old.value(at: section) != new.value(at: section) {
      switch section {
      case .roles: roles = true
      case .metrics: metrics = true
      case .rooms: rooms = true
      case .polling:
        // Every interval reaches the next poll; the replay cap is copied into each room when it is created.
        for key in AppConfiguration.PollingSettings.changedKeys(old.polling, new.polling, empty: .init()) {
          if key == .replayCap { restartKeys.append(Self.name(section, key)) } else { pollIntervals = true }
        }
      case .privateMessages:
        let empty = AppConfiguration.PrivateMessageSettings(rooms: [])
        for key in AppConfiguration.PrivateMessageSettings.changedKeys(
          old.privateMessages, new.privateMessages, empty: empty)
        {
          if key == .rooms { privateMessageRooms = true } else { restartKeys.append(Self.name(section, key)) }
        }
      case .transports: compareTransports(old.transports, new.transports)
      case .forum: restart(section, old.forum.changedKeys(to: new.forum))
      case .commands:
        restart(section, AppConfiguration.CommandSettings.changedKeys(old.commands, new.commands, empty: .init()))
      case .logging: restart(section, LoggingSettings.changedKeys(old.logging, new.logging, empty: .init()))
      case .backup: restart(section, BackupSettings.changedKeys(old.backup, new.backup, empty: .init()))
      case .dataDirectory, .logLevel, .chatTimeZone: restartKeys.append(section.stringValue)
      }
    }
  }

  /// The changed keys of a section that only a restart applies; the section itself when it appeared or went without a
  /// key of its own changing (an empty section given or taken away).
  private mutating func restart<Key: CodingKey>(_ section: AppConfiguration.CodingKeys, _ keys: [Key]) {
    let names = keys.map { Self.name(section, $0) }.sorted()
    restartKeys += names.isEmpty ? [section.stringValue] : names
  }

  private static func name(_ section: AppConfiguration.CodingKeys, _ key: some CodingKey) -> String {
    "\(section.stringValue).\(key.stringValue)"
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
      var reconfigured = false
      for (key, live) in previous.changedKeys(to: next).sorted(by: { $0.key < $1.key }) {
        if live { reconfigured = true } else { restartKeys.append("transports[\(name)].\(key)") }
      }
      // A secret that moved between the file and the environment, its value the same, changes nothing.
      if reconfigured { reconfiguredTransports.append(name) }
    }
  }
}
