import BotStore
import ForumModel
import Foundation

/// What the daemon writes at every heartbeat for `awfulbot status` and `restore`, which run in other processes and
/// see only the database: BotStore's `DaemonHeartbeatRecord`, `ForumSessionStateRecord`, `TransportConnectionRecord`
/// and `StorageStateRecord`. The two values whose types the store does not know (the config file's stamp, a wall in
/// front of the forum) are kept in their rows as JSON, written and read here.
enum OperationsRecord {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  static func encode<T: Encodable>(_ value: T?) -> String? {
    value.flatMap { try? encoder.encode($0) }.flatMap { String(data: $0, encoding: .utf8) }
  }

  static func decode<T: Decodable>(_ type: T.Type, from text: String?) -> T? {
    text.flatMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
  }
}

extension DaemonHeartbeatRecord {
  init(
    pid: Int32, startedAt: Date, lastSeen: Date, stoppedAt: Date?, heartbeatSeconds: Double,
    configuration: ConfigurationStamp?
  ) {
    self.init(
      pid: pid, version: AppInfo.version, startedAt: startedAt, lastSeen: lastSeen, stoppedAt: stoppedAt,
      heartbeatSeconds: heartbeatSeconds, configuration: OperationsRecord.encode(configuration))
  }

  /// The config file the daemon runs with; nil when it runs without one, as `demo` does.
  var configurationStamp: ConfigurationStamp? {
    OperationsRecord.decode(ConfigurationStamp.self, from: configuration)
  }
}

extension ForumSessionStateRecord {
  init(loggedIn: Bool, checkedAt: Date, wall: ForumWallSighting?) {
    self.init(loggedIn: loggedIn, checkedAt: checkedAt, wall: OperationsRecord.encode(wall))
  }

  /// The wall in front of the forum at the heartbeat; nil while the forum answers itself.
  var wallSighting: ForumWallSighting? {
    OperationsRecord.decode(ForumWallSighting.self, from: wall)
  }
}
