import AwfulBotTestKit
import ChatBridge
import NIOCore
import NIOPosix
import Synchronization

/// A TCP relay in front of the IRC server. The bot connects through it, and `cut()` closes the relayed
/// connections the way a server dropping its clients would, while the real server keeps running for the tests
/// that share it.
final class OpsIRCRelay: Sendable {
  typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

  let port: Int
  private let server: NIOAsyncChannel<Connection, Never>
  private let open = Mutex<[any Channel]>([])

  private init(server: NIOAsyncChannel<Connection, Never>, port: Int) {
    self.server = server
    self.port = port
  }

  /// Runs `body` with a relay to `host:port` listening on 127.0.0.1; everything is closed when it returns.
  static func with(
    upstreamHost host: String, upstreamPort: Int, _ body: (OpsIRCRelay) async throws -> Void
  ) async throws {
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
      }
    let relay = OpsIRCRelay(server: server, port: server.channel.localAddress?.port ?? 0)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await relay.accept(host: host, port: upstreamPort) }
      defer { relay.close() }
      try await body(relay)
    }
  }

  /// Closes every relayed connection (both sides) and waits until the sockets are closed; the relay keeps accepting
  /// new ones. Returns how many channels (client and server sides) it closed.
  @discardableResult
  func cut() async -> Int {
    let channels = takeOpen()
    for channel in channels { try? await channel.close() }
    return channels.count
  }

  private func takeOpen() -> [any Channel] {
    open.withLock { open in
      defer { open = [] }
      return open
    }
  }

  /// How many connections the relay accepted, and how many of those reached the server.
  var counts: (accepted: Int, relayed: Int) { tally.withLock { ($0.accepted, $0.relayed) } }
  private let tally = Mutex<(accepted: Int, relayed: Int)>((0, 0))

  private func close() {
    server.channel.close(promise: nil)
    for channel in takeOpen() { channel.close(promise: nil) }
  }

  private func accept(host: String, port: Int) async throws {
    try await server.executeThenClose { inbound in
      try await withThrowingDiscardingTaskGroup { group in
        for try await connection in inbound {
          group.addTask { try? await self.relay(connection, host: host, port: port) }
        }
      }
    }
  }

  private func relay(_ connection: Connection, host: String, port: Int) async throws {
    open.withLock { $0.append(connection.channel) }
    tally.withLock { $0.accepted += 1 }
    let upstream = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
      }
    open.withLock { $0.append(upstream.channel) }
    tally.withLock { $0.relayed += 1 }
    try await connection.executeThenClose { clientIn, clientOut in
      try await upstream.executeThenClose { serverIn, serverOut in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { for try await bytes in clientIn { try await serverOut.write(bytes) } }
          group.addTask { for try await bytes in serverIn { try await clientOut.write(bytes) } }
          // Either side ending ends both.
          _ = try await group.next()
          group.cancelAll()
        }
      }
    }
  }
}
