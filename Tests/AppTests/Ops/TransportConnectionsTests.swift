import AwfulBotApp
import ChatBridge
import Testing

/// Status, readiness and the reconnect metric read one record of what each transport told on its event stream.
@Suite("Transport connections")
struct TransportConnectionsTests {
  @Test("a transport is connecting until it says otherwise; every return to connected after the first is a reconnect")
  func countsConnections() {
    let connections = TransportConnections()
    #expect(connections.entry("irc").state == .connecting)
    #expect(connections.entry("irc").state.problem == "connecting")
    let observe = connections.observer(for: "irc")
    observe(.connection(.connected))
    observe(.connection(.connected))
    #expect(connections.entry("irc").connections == 1, "a repeated state is not a new connection")
    observe(.connection(.retrying(reason: "timeout")))
    #expect(connections.entry("irc").state.problem == "reconnecting (timeout)")
    observe(.connection(.connected))
    #expect(connections.entry("irc") == .init(state: .connected, connections: 2))
    observe(.connection(.stopped(reason: "SASL PLAIN failed")))
    #expect(connections.entry("irc").state.problem == "stopped: SASL PLAIN failed")
    #expect(connections.entry("matrix").state == .connecting, "each transport has its own record")
  }
}
