import ChatBridge
import Foundation

/// Reads lines from a file handle (stdin, a pipe) on a dedicated thread, because reads block and must not hold a
/// cooperative-pool thread. The stream ends at end of input.
package enum LineReader {
  package static func lines(from handle: FileHandle) -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    let thread = Thread {
      var buffer = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
        while let newline = buffer.firstIndex(of: 0x0A) {
          let line = buffer[buffer.startIndex..<newline]
          buffer.removeSubrange(buffer.startIndex...newline)
          continuation.yield(decode(line))
        }
      }
      if !buffer.isEmpty { continuation.yield(decode(buffer)) }
      continuation.finish()
    }
    thread.name = "awfulbot-console-input"
    thread.start()
    return stream
  }

  /// UTF-8, with invalid bytes replaced rather than the line dropped; a Windows line end is removed.
  private static func decode(_ bytes: Data) -> String {
    var line = String(decoding: bytes, as: UTF8.self)
    if line.hasSuffix("\r") { line.removeLast() }
    return line
  }
}
