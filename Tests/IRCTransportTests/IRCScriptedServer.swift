import NIOCore
import NIOPosix
import Synchronization

/// A tiny IRC server on 127.0.0.1 that answers each line by a script, for what the test network cannot do on
/// demand (a network without SASL, a refusal on one connection only). Records every line each connection sent.
final class IRCScriptedServer: Sendable {
  typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

  enum Reply: Sendable {
    case lines([String])
    case close
  }
  /// The reply to one line of connection number `connection` (0 for the first).
  typealias Script = @Sendable (_ connection: Int, _ line: String) -> Reply

  let port: Int
  private let server: NIOAsyncChannel<Connection, Never>
  private let received = Mutex<[[String]]>([])
  private let open = Mutex<[any Channel]>([])

  private init(server: NIOAsyncChannel<Connection, Never>) {
    self.server = server
    self.port = server.channel.localAddress?.port ?? 0
  }

  /// Runs `body` with a server answering by `script`; everything is closed when it returns.
  static func with<T: Sendable>(_ script: @escaping Script, _ body: (IRCScriptedServer) async throws -> T)
    async throws -> T
  {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
      }
    let server = IRCScriptedServer(server: channel)
    let accepting = Task { try? await server.accept(script) }
    defer {
      server.close()
      accepting.cancel()
    }
    return try await body(server)
  }

  /// The lines connection `index` sent so far (empty when there was no such connection).
  func lines(of index: Int) -> [String] {
    received.withLock { $0.indices.contains(index) ? $0[index] : [] }
  }

  var connectionCount: Int { received.withLock { $0.count } }

  private func close() {
    server.channel.close(promise: nil)
    for channel in open.withLock({ $0 }) { channel.close(promise: nil) }
  }

  private func accept(_ script: @escaping Script) async throws {
    try await server.executeThenClose { inbound in
      try await withThrowingDiscardingTaskGroup { group in
        for try await connection in inbound {
          let index = received.withLock { received in
            received.append([])
            return received.count - 1
          }
          open.withLock { $0.append(connection.channel) }
          group.addTask { try? await self.serve(connection, index: index, script: script) }
        }
      }
    }
  }

  private func serve(_ connection: Connection, index: Int, script: Script) async throws {
    try await connection.executeThenClose { inbound, outbound in
      var pending: [UInt8] = []
      for try await buffer in inbound {
        pending += buffer.readableBytesView
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          var bytes = Array(pending[..<newline])
          pending.removeFirst(newline + 1)
          if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
          let line = String(decoding: bytes, as: UTF8.self)
          received.withLock { $0[index].append(line) }
          switch script(index, line) {
          case .lines(let replies):
            for reply in replies { try await outbound.write(ByteBuffer(string: reply + "\r\n")) }
          case .close:
            return
          }
        }
      }
    }
  }
}

extension IRCScriptedServer {
  /// A server that registers `nick`: CAP LS offers `caps` (or, when nil, CAP is an unknown command and NICK/USER
  /// alone register), every CAP REQ is acknowledged, and SASL succeeds on the connections `saslAccepts` says.
  /// `closeAfterJoin` ends the connection once the bot has joined (a server dropping it). `whoisNickServ` answers
  /// `WHOIS NickServ` (by default: nobody holds the nick).
  static func registering(
    nick: String, caps: String?, saslAccepts: @escaping @Sendable (Int) -> Bool = { _ in true },
    closeAfterJoin: @escaping @Sendable (Int) -> Bool = { _ in false }, whoisNickServ: NickServ = .absent
  ) -> Script {
    let server = ":irc.scripted"
    return { connection, line in
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      switch (words.first ?? "", words.dropFirst().first ?? "") {
      case ("CAP", "LS"):
        guard let caps else { return .lines(["\(server) 421 * CAP :Unknown command"]) }
        return .lines(["\(server) CAP * LS :\(caps)"])
      case ("CAP", "REQ"):
        let wanted = line.split(separator: " ", maxSplits: 2).last.map(String.init) ?? ""
        return .lines(["\(server) CAP * ACK :\(wanted.hasPrefix(":") ? String(wanted.dropFirst()) : wanted)"])
      case ("CAP", "END"):
        return .lines(["\(server) 001 \(nick) :Welcome \(nick)!bot@scripted"])
      case ("USER", _):
        return caps == nil ? .lines(["\(server) 001 \(nick) :Welcome \(nick)!bot@scripted"]) : .lines([])
      case ("AUTHENTICATE", "PLAIN"), ("AUTHENTICATE", "EXTERNAL"):
        return .lines(["AUTHENTICATE +"])
      case ("AUTHENTICATE", _):
        guard saslAccepts(connection) else {
          return .lines(["\(server) 904 \(nick) :SASL authentication failed"])
        }
        return .lines([
          "\(server) 900 \(nick) \(nick)!bot@scripted account :You are now logged in as account",
          "\(server) 903 \(nick) :SASL authentication successful",
        ])
      case ("PING", let token):
        return .lines(["\(server) PONG irc.scripted :\(token.hasPrefix(":") ? String(token.dropFirst()) : token)"])
      case ("WHOIS", _):
        return .lines(whoisNickServ.replies(to: nick, from: server))
      case ("JOIN", let channel):
        if closeAfterJoin(connection) { return .close }
        return .lines([":\(nick)!bot@scripted JOIN \(channel)"])
      case ("QUIT", _):
        return .close
      default:
        return .lines([])
      }
    }
  }
}

extension IRCScriptedServer {
  /// Who holds the nick NickServ, as `WHOIS NickServ` shows it.
  enum NickServ: Sendable {
    case absent
    /// The services: their server, and the 313 text.
    case service(server: String, text: String)
    /// Someone on the ordinary server (an IRC operator when `text` is given).
    case user(operatorText: String?)

    func replies(to nick: String, from server: String) -> [String] {
      switch self {
      case .absent:
        return ["\(server) 401 \(nick) NickServ :No such nick", "\(server) 318 \(nick) NickServ :End of /WHOIS list."]
      case .service(let services, let text):
        return [
          "\(server) 311 \(nick) NickServ NickServ \(services) * :Nickname Services",
          "\(server) 312 \(nick) NickServ \(services) :Services", "\(server) 313 \(nick) NickServ :\(text)",
          "\(server) 318 \(nick) NickServ :End of /WHOIS list.",
        ]
      case .user(let operatorText):
        return [
          "\(server) 311 \(nick) NickServ mallory host.example * :Nickname Services",
          "\(server) 312 \(nick) NickServ irc.scripted :Scripted IRC",
        ] + (operatorText.map { ["\(server) 313 \(nick) NickServ :\($0)"] } ?? []) + [
          "\(server) 318 \(nick) NickServ :End of /WHOIS list."
        ]
      }
    }
  }
}
