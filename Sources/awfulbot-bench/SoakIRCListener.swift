import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The soak's person in the IRC channel: a plain client on a blocking socket, read on a thread of its own (reads
/// block and must not hold a cooperative-pool thread), that answers PINGs, joins the channel and notes the markers
/// in every line the bot sends there. Written on raw sockets so the bench target needs no IRC or NIO dependency.
final class SoakIRCListener: Sendable {
  private let socket: Int32
  private let nick: String
  private let channel: String
  private let botNick: String
  private let state = Mutex(State())

  private struct State {
    var registered = false
    var botJoined = false
    var closed = false
    /// Marker → how many lines of the bot carried it.
    var seen: [Int: Int] = [:]
    var lines = 0
  }

  init(host: String, port: Int, nick: String, channel: String, botNick: String) throws {
    self.nick = nick
    self.channel = channel
    self.botNick = botNick
    socket = try Self.connect(host: host, port: port)
    let thread = Thread { [self] in readLoop() }
    thread.name = "soak-irc-listener"
    thread.start()
    send("NICK \(nick)")
    send("USER \(nick) 0 * :awfulbot soak listener")
  }

  var isRegistered: Bool { state.withLock { $0.registered } }
  var botJoined: Bool { state.withLock { $0.botJoined } }
  var isClosed: Bool { state.withLock { $0.closed } }
  var seen: [Int: Int] { state.withLock { $0.seen } }
  var lineCount: Int { state.withLock { $0.lines } }

  func quit() {
    send("QUIT :soak over")
    shutdown(socket, Int32(SHUT_RDWR))
  }

  private func send(_ line: String) {
    let bytes = Array((line + "\r\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  private func readLoop() {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      buffer += chunk[0..<count]
      while let newline = buffer.firstIndex(of: 0x0A) {
        var line = String(decoding: buffer[0..<newline], as: UTF8.self)
        buffer.removeSubrange(0...newline)
        if line.hasSuffix("\r") { line.removeLast() }
        handle(line)
      }
    }
    state.withLock { $0.closed = true }
    close(socket)
  }

  private func handle(_ line: String) {
    var rest = Substring(line)
    var source = ""
    if rest.hasPrefix(":"), let space = rest.firstIndex(of: " ") {
      source = String(rest[rest.index(after: rest.startIndex)..<space])
      rest = rest[rest.index(after: space)...]
    }
    let parts = rest.split(separator: " ", maxSplits: 2)
    guard let command = parts.first else { return }
    let sender = String(source.prefix { $0 != "!" })
    switch command {
    case "PING": send("PONG " + rest.dropFirst(5))
    case "001":
      state.withLock { $0.registered = true }
      send("JOIN \(channel)")
    case "433": send("NICK \(nick)_")
    case "JOIN" where sender.lowercased() == botNick.lowercased():
      state.withLock { $0.botJoined = true }
    case "PRIVMSG", "NOTICE":
      // A `case a, b where …` guards only its last pattern: the sender is checked here for both.
      guard sender.lowercased() == botNick.lowercased() else { return }
      let markers = SoakMarkers.numbers(in: line)
      state.withLock { state in
        state.lines += 1
        for marker in markers { state.seen[marker, default: 0] += 1 }
      }
    default: break
    }
  }

  private static func connect(host: String, port: Int) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw SoakError.setup("cannot resolve the IRC server \(host)")
    }
    defer { freeaddrinfo(list) }
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      let fd = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      if fd >= 0 {
        if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
        close(fd)
      }
      entry = address.pointee.ai_next
    }
    throw SoakError.setup("cannot connect to the IRC server \(host):\(port)")
  }
}
