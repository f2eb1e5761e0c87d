import MatrixTransport

/// `/readyz`, `status` and the reconnect count see a Matrix transport as connected once its last `/sync` succeeded.
extension MatrixTransport: ConnectionStateReporting {
  package func connectionProblem() async -> String? {
    status.connectionProblem
  }
}
