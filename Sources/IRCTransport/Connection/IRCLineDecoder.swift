import NIOCore

/// Frames the byte stream into lines ending in LF (the CR before it is dropped; some servers send bare LF). Lines
/// are UTF-8 when they are valid UTF-8, else Latin-1 (older clients), so a stray byte never loses a line. A line
/// longer than `maxLineBytes` (tags included) is dropped whole rather than read in pieces as several commands.
struct IRCLineDecoder: ByteToMessageDecoder {
  typealias InboundOut = String

  /// 8191 bytes of tags plus 512 of message, with room to spare.
  let maxLineBytes: Int
  private var discarding = false

  init(maxLineBytes: Int = 16_384) {
    self.maxLineBytes = maxLineBytes
  }

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
      if buffer.readableBytes > maxLineBytes {
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        discarding = true
      }
      return .needMoreData
    }
    let length = newline - buffer.readerIndex
    guard var bytes = buffer.readBytes(length: length + 1) else { return .needMoreData }
    bytes.removeLast()
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    if discarding {
      // The tail of an over-long line.
      discarding = false
      return .continue
    }
    if bytes.isEmpty || bytes.count > maxLineBytes { return .continue }
    let line = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    context.fireChannelRead(Self.wrapInboundOut(line))
    return .continue
  }

  mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
    -> DecodingState
  {
    // A last line without its line break is incomplete: drop it.
    buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
    return .needMoreData
  }
}
