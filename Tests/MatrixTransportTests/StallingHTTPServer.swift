import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that answers the first bytes of each connection with `answer` (possibly nothing) and
/// then says nothing more: a homeserver that hangs before its answer, or halfway through it.
final class StallingHTTPServer: Sendable {
  let port: Int
  private let channel: any Channel

  private init(channel: any Channel) {
    self.channel = channel
    self.port = channel.localAddress?.port ?? 0
  }

  static func start(answering answer: String) async throws -> StallingHTTPServer {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { child in
        child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(Stall(answer: answer)) }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return StallingHTTPServer(channel: channel)
  }

  func stop() async {
    try? await channel.close()
  }

  private final class Stall: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let answer: String
    var answered = false

    init(answer: String) { self.answer = answer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !answered else { return }
      answered = true
      if !answer.isEmpty { context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil) }
    }
  }
}
