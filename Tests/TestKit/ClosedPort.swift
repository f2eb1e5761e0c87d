import NIOCore
import NIOPosix
import Testing

/// A loopback port that was free a moment ago: bound, then closed, so connecting to it is refused.
package func closedLoopbackPort() async throws -> Int {
  let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .bind(host: "127.0.0.1", port: 0).get()
  let port = try #require(channel.localAddress?.port)
  try await channel.close()
  return port
}
