import MatrixTransport

/// `/readyz`, `status` and the reconnect count see a Matrix transport as connected once its last `/sync` succeeded.
extension MatrixTransport: ConnectionStateReporting {
  package func connectionProblem() async -> String? {
    status.connectionProblem
  }

  /// The bot has no end-to-end encryption: commands in these rooms never reach it.
  package func unreadableRooms() async -> [String] { encryptedRooms.sorted() }
}
