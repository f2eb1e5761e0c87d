import ChatBridge

extension RoomRef {
  /// The capabilities of the room's transport among the configured ones; a room on a transport that is not
  /// configured is refused with `EngineError.unknownTransport`.
  func capabilities(in transports: [String: ChatCapabilities]) throws -> ChatCapabilities {
    guard let capabilities = transports[transport] else { throw EngineError.unknownTransport(transport) }
    return capabilities
  }
}
