import ChatBridge

extension IRCTransportConfiguration {
  /// The config file's keys, in the order problems are reported (the order a config is best read in). The server is
  /// written as the file has it, `server: "host:port"`, and read into `host` and `port` here: one schema.
  /// `editNotices` (once a list of channels) moved to the rooms' settings and is read only to say so.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, server, tls, caFile, nick, alternateNicks, username, realname, channels, channelRoles, sasl
    case relayAs, relayStyle, editNotices, titleColour, linesPerMessage, floodBurst, pingIntervalSeconds
    case pingTimeoutSeconds, reconnectDelaySeconds, maximumReconnectDelaySeconds, reconnectJitter, nickReclaimSeconds
    case sendWaitSeconds, connectTimeoutSeconds, registrationTimeoutSeconds, floodIntervalSeconds, mircFormatting
    case admins, members, quitMessage, rejoinOnKick, nickServPassword, servicesServer, nickServSASL
    case clientCertificateFile, clientKeyFile
  }

  /// Reads every key, a value of the wrong shape reported and its default taken, then makes the checks of
  /// `validate()`: a configuration that decodes is one the transport runs with, and one that does not says
  /// everything wrong with it at once (`IRCConfigurationError`, each problem with its key).
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>(decoder)
    let name = reader.string(.name) ?? "irc"
    let server = reader.string(.server, required: true)
    // Port 0 means "any free port" to a listener; a server to connect to has a real one.
    let address = server.flatMap(HostPort.init(parsing:)).flatMap { $0.port == 0 ? nil : $0 }
    if let server, address == nil { reader.report("server", "expected host:port, got \"\(server)\"") }
    let tls = reader.bool(.tls) ?? true
    self.init(
      name: name, host: address?.host ?? "", port: address?.port, tls: tls,
      nick: reader.string(.nick, required: true) ?? "")
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
    if reader.contains(.editNotices) {
      reader.report(
        .editNotices,
        "moved to the channels' own settings: give each channel \"editNotices\": true in its rooms[] entry, or "
          + "say !editnotices on in the channel")
    }
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
    // A check of a key whose value could not be read would judge the default taken in its place.
    let unread = Set(reader.problems.map(\.key))
    let found =
      reader.problems + problemsBesideLists(secretsRequired: reader.secretsRequired).filter { !unread.contains($0.key) }
    if !found.isEmpty { throw IRCConfigurationError(Self.inFileOrder(found)) }
  }
}

extension IRCTransportConfiguration: KeyedConfiguration {
  /// Each key's setting as the file writes it, for the reload's comparison (`changedKeys(to:)`).
  package func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .name: name
    case .server: HostPort(host: host, port: port).description
    case .tls: tls
    case .caFile: caFile
    case .nick: nick
    case .alternateNicks: alternateNicks
    case .username: username
    case .realname: realname
    case .channels: channels
    case .channelRoles: channelRoles
    case .sasl: sasl
    case .relayAs: relayAs
    case .relayStyle: relayStyle
    // Moved to the rooms' settings: read only to say so, never a setting of the transport.
    case .editNotices: AnyHashable(false)
    case .titleColour: titleColour
    case .linesPerMessage: linesPerMessage
    case .floodBurst: floodBurst
    case .pingIntervalSeconds: pingIntervalSeconds
    case .pingTimeoutSeconds: pingTimeoutSeconds
    case .reconnectDelaySeconds: reconnectDelaySeconds
    case .maximumReconnectDelaySeconds: maximumReconnectDelaySeconds
    case .reconnectJitter: reconnectJitter
    case .nickReclaimSeconds: nickReclaimSeconds
    case .sendWaitSeconds: sendWaitSeconds
    case .connectTimeoutSeconds: connectTimeoutSeconds
    case .registrationTimeoutSeconds: registrationTimeoutSeconds
    case .floodIntervalSeconds: floodIntervalSeconds
    case .mircFormatting: mircFormatting
    case .admins: admins
    case .members: members
    case .quitMessage: quitMessage
    case .rejoinOnKick: rejoinOnKick
    case .nickServPassword: nickServPassword
    case .servicesServer: servicesServer
    case .nickServSASL: nickServSASL
    case .clientCertificateFile: clientCertificateFile
    case .clientKeyFile: clientKeyFile
    }
  }
}
