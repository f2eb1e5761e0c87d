import NIOCore

/// Writes one line plus CR LF. Refuses a line with CR, LF or NUL inside: that would be a second command, and every
/// line reaching here was built by `IRCMessage`, which never produces one.
struct IRCLineEncoder: MessageToByteEncoder {
  typealias OutboundIn = String

  struct UnsafeLine: Error, CustomStringConvertible {
    var description: String { "refused to send a line containing CR, LF or NUL" }
  }

  func encode(data: String, out: inout ByteBuffer) throws {
    guard !data.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else { throw UnsafeLine() }
    out.writeString(data)
    out.writeStaticString("\r\n")
  }
}
