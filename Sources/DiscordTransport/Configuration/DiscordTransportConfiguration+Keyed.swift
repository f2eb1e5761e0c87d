import ChatBridge

/// The settings key by key, so a reload names what changed by the file's own keys (`rooms`, `username`…).
extension DiscordTransportConfiguration: KeyedConfiguration {
  package func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .name: name
    case .rooms: rooms
    case .username: username
    case .linkPreviews: linkPreviews
    case .requestTimeoutSeconds: requestTimeoutSeconds
    case .maximumRateLimitWaitSeconds: maximumRateLimitWaitSeconds
    case .sendAttempts: sendAttempts
    }
  }
}
