import ChatBridge

extension AppConfiguration.CommandSettings: Decodable {
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    let prefix = reader.string(.prefix)
    if let prefix, prefix.isEmpty || prefix.contains(where: \.isWhitespace) {
      reader.report(.prefix, "expected one or more non-space characters, got \"\(prefix)\"")
    }
    let botName = reader.string(.botName)
    if let botName, botName.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report(.botName, "must not be empty")
    }
    func limit(_ key: CodingKeys) -> Int? {
      guard let value = reader.integer(key) else { return nil }
      guard (0...10_000).contains(value) else {
        reader.report(key, "expected 0 (no limit) to 10000, got \(value)")
        return nil
      }
      return value
    }
    self.init(
      prefix: prefix, botName: botName, userCommandsPerMinute: limit(.userCommandsPerMinute),
      roomCommandsPerMinute: limit(.roomCommandsPerMinute), forumRequestsPerMinute: limit(.forumRequestsPerMinute),
      forumsPerRoom: limit(.forumsPerRoom), watchedThreadsPerRoom: limit(.watchedThreadsPerRoom),
      userSearchesPerMinute: limit(.userSearchesPerMinute))
    try reader.finish()
  }
}

extension AppConfiguration.CommandSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .prefix: prefix
    case .botName: botName
    case .userCommandsPerMinute: userCommandsPerMinute
    case .roomCommandsPerMinute: roomCommandsPerMinute
    case .forumRequestsPerMinute: forumRequestsPerMinute
    case .forumsPerRoom: forumsPerRoom
    case .watchedThreadsPerRoom: watchedThreadsPerRoom
    case .userSearchesPerMinute: userSearchesPerMinute
    }
  }
}
