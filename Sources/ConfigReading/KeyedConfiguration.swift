/// A configuration read from an object of keys (a transport's settings), whose values can be compared key by key: a
/// reload names what changed by the config file's own keys, and says whether the running transport takes each one.
/// The switch in `value(at:)` is exhaustive over the keys, so a key added is compared without anyone keeping a list.
package protocol KeyedConfiguration: Equatable, Sendable {
  associatedtype ConfigurationKey: CodingKey & CaseIterable
  /// What the configuration holds under `key` (the file's key), in a form that compares as the setting does.
  func value(at key: ConfigurationKey) -> AnyHashable
}

extension KeyedConfiguration {
  /// The keys a config file may give, as it writes them, in the order problems are best read in.
  package static var configurationKeys: [String] { ConfigurationKey.allCases.map(\.stringValue) }

  /// The file's keys whose values differ from `other`'s, in the order the configuration declares them.
  package func changedKeys(to other: Self) -> [String] {
    ConfigurationKey.allCases.filter { value(at: $0) != other.value(at: $0) }.map(\.stringValue)
  }
}
