import ChatBridge

extension IRCTransportConfiguration {
  /// The config file's keys, in the order problems are reported (the order a config is best read in).
  enum CodingKeys: String, CodingKey, CaseIterable {
    case name, host, port, tls, caFile, nick, alternateNicks, username, realname, channels, channelRoles, sasl
    case relayAs, relayStyle, editNotices, titleColour, linesPerMessage, floodBurst, pingIntervalSeconds
    case pingTimeoutSeconds, reconnectDelaySeconds, maximumReconnectDelaySeconds, reconnectJitter, nickReclaimSeconds
    case sendWaitSeconds, connectTimeoutSeconds, registrationTimeoutSeconds, floodIntervalSeconds, mircFormatting
    case admins, members, quitMessage, rejoinOnKick, nickServPassword, servicesServer, nickServSASL
    case clientCertificateFile, clientKeyFile
  }

  /// The keys a config file may give, as it writes them.
  package static var configurationKeys: [String] { CodingKeys.allCases.map(\.stringValue) }

  /// Reads every key, a value of the wrong shape reported and its default taken, then makes the checks of
  /// `validate()`: a configuration that decodes is one the transport runs with, and one that does not says
  /// everything wrong with it at once (`IRCConfigurationError`, each problem with its key).
  package init(from decoder: any Decoder) throws {
    var reader = try OptionReader<CodingKeys>(decoder)
    let tls = reader.bool(.tls) ?? true
    self.init(
      name: reader.string(.name) ?? "irc", host: reader.requiredString(.host) ?? "", port: reader.integer(.port),
      tls: tls, nick: reader.requiredString(.nick) ?? "")
    let defaults = self
    caFile = reader.string(.caFile)
    alternateNicks = reader.strings(.alternateNicks) ?? []
    username = reader.string(.username)
    realname = reader.string(.realname) ?? defaults.realname
    channels = reader.channels()
    channelRoles = reader.channelRoles() ?? defaults.channelRoles
    sasl = reader.sasl()
    relayAs = reader.choice(.relayAs, expected: "notice or privmsg") ?? defaults.relayAs
    let styles = IRCRenderer.RelayStyle.allCases.map(\.rawValue).joined(separator: " or ")
    relayStyle = reader.choice(.relayStyle, expected: styles) ?? defaults.relayStyle
    editNotices = reader.strings(.editNotices) ?? []
    titleColour = reader.integer(.titleColour)
    linesPerMessage = reader.integer(.linesPerMessage) ?? defaults.linesPerMessage
    floodBurst = reader.integer(.floodBurst) ?? defaults.floodBurst
    pingIntervalSeconds = reader.number(.pingIntervalSeconds) ?? defaults.pingIntervalSeconds
    pingTimeoutSeconds = reader.number(.pingTimeoutSeconds) ?? defaults.pingTimeoutSeconds
    reconnectDelaySeconds = reader.number(.reconnectDelaySeconds) ?? defaults.reconnectDelaySeconds
    maximumReconnectDelaySeconds =
      reader.number(.maximumReconnectDelaySeconds) ?? defaults.maximumReconnectDelaySeconds
    reconnectJitter = reader.number(.reconnectJitter) ?? defaults.reconnectJitter
    nickReclaimSeconds = reader.number(.nickReclaimSeconds) ?? defaults.nickReclaimSeconds
    sendWaitSeconds = reader.number(.sendWaitSeconds) ?? defaults.sendWaitSeconds
    connectTimeoutSeconds = reader.number(.connectTimeoutSeconds) ?? defaults.connectTimeoutSeconds
    registrationTimeoutSeconds = reader.number(.registrationTimeoutSeconds) ?? defaults.registrationTimeoutSeconds
    floodIntervalSeconds = reader.number(.floodIntervalSeconds) ?? defaults.floodIntervalSeconds
    mircFormatting = reader.bool(.mircFormatting) ?? defaults.mircFormatting
    admins = reader.strings(.admins) ?? []
    members = reader.strings(.members) ?? []
    quitMessage = reader.string(.quitMessage) ?? defaults.quitMessage
    rejoinOnKick = reader.bool(.rejoinOnKick) ?? defaults.rejoinOnKick
    nickServPassword = reader.string(.nickServPassword)
    servicesServer = reader.string(.servicesServer)
    nickServSASL = reader.bool(.nickServSASL) ?? defaults.nickServSASL
    clientCertificateFile = reader.string(.clientCertificateFile)
    clientKeyFile = reader.string(.clientKeyFile)
    let found = reader.problems + problemsBesideLists(secretsRequired: reader.secretsRequired)
    if !found.isEmpty { throw IRCConfigurationError(Self.inFileOrder(found)) }
  }
}
