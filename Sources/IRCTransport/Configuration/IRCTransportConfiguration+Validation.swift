import ChatBridge

extension IRCTransportConfiguration {
  /// Checks what the server would refuse anyway, so a bad config fails at start with a clear message. The one set of
  /// checks: decoding a configuration runs them too (`init(from:)`), and the application reports them at their key
  /// paths in its config file.
  package func validate() throws(IRCConfigurationError) {
    var found: [ConfigProblem] = []
    for (index, channel) in channels.enumerated() {
      found += Self.problems(of: channel, at: "channels[\(index)]", nameKey: "channels[\(index)]")
    }
    for mode in channelRoles.keys.sorted() where !Self.isModeLetter(mode) {
      found.append(.init("channelRoles.\(mode)", "expected a channel member mode letter (q, a, o, h, v)"))
    }
    found += problemsBesideLists()
    if !found.isEmpty { throw IRCConfigurationError(Self.inFileOrder(found)) }
  }

  /// A channel's name and key.
  static func problems(of channel: Channel, at key: String, nameKey: String) -> [ConfigProblem] {
    var found: [ConfigProblem] = []
    if let problem = channelNameProblem(channel.name) { found.append(.init(nameKey, problem)) }
    if let channelKey = channel.key, channelKey.isEmpty || channelKey.contains(" ") || channelKey.contains(",") {
      found.append(.init("\(key).key", "must not be empty or contain spaces or commas"))
    }
    return found
  }

  static func channelNameProblem(_ name: String) -> String? {
    do {
      _ = try IRCChannelName(name)
      return nil
    } catch {
      return error.description
    }
  }

  /// A channel member mode is one ASCII letter (`q`, `a`, `o`, `h`, `v`).
  static func isModeLetter(_ mode: Character) -> Bool { mode.isASCII && mode.isLetter }

  /// Every check but those of the channels and channel roles, which a decoder makes item by item (where it knows
  /// how each was written and what could not be read).
  /// `secretsRequired` false: a SASL password left out is not missing (it comes from the environment).
  func problemsBesideLists(secretsRequired: Bool = true) -> [ConfigProblem] {
    var found: [ConfigProblem] = []
    // The file writes both as `server` (`host:port`).
    if host.isEmpty { found.append(.init("server", "the host must not be empty")) }
    if !(1...65535).contains(port) { found.append(.init("server", "the port must be 1–65535, got \(port)")) }
    var nicks = [("nick", nick)]
    nicks += alternateNicks.enumerated().map { ("alternateNicks[\($0)]", $1) }
    for (key, nick) in nicks {
      do { _ = try IRCNick(nick) } catch { found.append(.init(key, error.description)) }
    }
    if let username, username.isEmpty || username.contains(" ") || username.contains("@") {
      found.append(.init("username", "“\(username)” is not a user name (not empty, no spaces or @)"))
    }
    if let sasl {
      switch sasl.mechanism {
      case .plain:
        if (sasl.account ?? "").isEmpty {
          found.append(.init("sasl.account", "missing (SASL PLAIN needs the services account)"))
        }
        if secretsRequired, (sasl.password ?? "").isEmpty {
          found.append(.init("sasl.password", "missing (SASL PLAIN needs the account's password)"))
        }
      case .external:
        if clientCertificateFile == nil || clientKeyFile == nil {
          found.append(.init("sasl", "SASL EXTERNAL needs clientCertificateFile and clientKeyFile"))
        }
        if !tls { found.append(.init("sasl", "SASL EXTERNAL needs tls")) }
      }
    }
    // `NickServ@<it>` is a message target: a server name, one word.
    if let server = servicesServer,
      server.isEmpty || server.contains(where: { $0 == " " || $0 == "," || $0 == "@" || $0.isNewline })
    {
      found.append(.init("servicesServer", "“\(server)” is not a server name (one word, like services.libera.chat)"))
    }
    if let colour = titleColour, !(0...98).contains(colour) {
      found.append(.init("titleColour", "expected a colour number 0–98, got \(colour)"))
    }
    if linesPerMessage < 1 { found.append(.init("linesPerMessage", "must be at least 1")) }
    if floodBurst < 1 { found.append(.init("floodBurst", "must be at least 1")) }
    for (key, value) in [
      (CodingKeys.pingIntervalSeconds, pingIntervalSeconds), (.pingTimeoutSeconds, pingTimeoutSeconds),
      (.reconnectDelaySeconds, reconnectDelaySeconds), (.maximumReconnectDelaySeconds, maximumReconnectDelaySeconds),
      (.nickReclaimSeconds, nickReclaimSeconds), (.sendWaitSeconds, sendWaitSeconds),
      (.connectTimeoutSeconds, connectTimeoutSeconds), (.registrationTimeoutSeconds, registrationTimeoutSeconds),
    ] where value <= 0 {
      found.append(.init(key.stringValue, "must be more than 0 seconds"))
    }
    if floodIntervalSeconds < 0 { found.append(.init("floodIntervalSeconds", "must be 0 or more")) }
    if (clientCertificateFile == nil) != (clientKeyFile == nil) {
      found.append(.init("", "clientCertificateFile and clientKeyFile go together"))
    }
    return found
  }

  /// Problems in the order of `CodingKeys` (the order a config file is best read in), those about the connection
  /// as a whole last.
  static func inFileOrder(_ problems: [ConfigProblem]) -> [ConfigProblem] {
    ConfigProblem.inOrder(problems, keys: configurationKeys)
  }
}
