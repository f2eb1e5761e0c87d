import ChatBridge
import Logging

extension AppConfiguration: Decodable {
  /// The whole file, section by section in this order (each section's type reads and checks its own keys), so every
  /// problem comes out at once, in the order of the sections.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    let forum =
      reader.section(ForumSettings.self, .forum, required: true)
      ?? ForumSettings(username: "", password: SecretValue(environment: ForumSettings.passwordVariable))
    var dataDirectory = reader.string(.dataDirectory)
    if dataDirectory?.trimmingCharacters(in: .whitespaces).isEmpty == true {
      reader.report(.dataDirectory, "must not be empty (leave it out to use the working directory)")
      dataDirectory = nil
    }
    let polling = reader.section(PollingSettings.self, .polling)
    let commands = reader.section(CommandSettings.self, .commands)
    // Rooms and roles that follow are checked against the transports' names.
    reader.context.transportNames = []
    let transports = reader.sections(TransportSettings.self, .transports, required: true) ?? []
    if reader.raw(.transports)?.arrayValue?.isEmpty == true {
      reader.report(.transports, "at least one transport is needed")
    }
    let roles = reader.sections(RoleGrant.self, .roles)
    let rooms = reader.sections(RoomSettings.self, .rooms)
    let privateMessages = reader.section(PrivateMessageSettings.self, .privateMessages)
    let logging = reader.section(LoggingSettings.self, .logging)
    // A file without a `metrics` section gets the listener on its default address: operators expect it there.
    let metrics = reader.contains(.metrics) ? reader.section(MetricsSettings.self, .metrics) : MetricsSettings()
    var logLevel: Logger.Level?
    if let text = reader.string(.logLevel) {
      logLevel = Logger.Level(rawValue: text)
      if logLevel == nil { reader.report(.logLevel, "unknown level \"\(text)\"") }
    }
    let chatTimeZone = reader.timeZone(.chatTimeZone)
    let backup = reader.section(BackupSettings.self, .backup)
    self.init(
      forum: forum, dataDirectory: dataDirectory, polling: polling, commands: commands, transports: transports,
      roles: roles, rooms: rooms, logging: logging, metrics: metrics, logLevel: logLevel, chatTimeZone: chatTimeZone,
      privateMessages: privateMessages, backup: backup)
    try reader.finish()
  }
}

extension AppConfiguration: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .forum: forum
    case .dataDirectory: dataDirectory
    case .polling: polling
    case .commands: commands
    case .transports: transports
    case .roles: roles
    case .rooms: rooms
    case .logging: logging
    case .metrics: metrics
    case .logLevel: logLevel
    case .chatTimeZone: chatTimeZone
    case .privateMessages: privateMessages
    case .backup: backup
    }
  }
}
