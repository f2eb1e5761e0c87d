import ChatBridge
import Foundation

/// A message made ready to send while the one before it is in flight (see `MatrixTransport.prepare`): its events
/// rendered, their contents built outside any Matrix thread, and the request bodies encoded. Used only for the very
/// message it was made from, and the bodies only where nothing changes them at send time (no thread position, no
/// encryption).
struct MatrixPreparedSend: Sendable {
  let message: OutgoingMessage
  let events: [MatrixRenderer.Rendered]
  let contents: [JSONValue]
  /// One body per content; nil for a room whose events are encrypted (the body is built by the encryption then).
  let bodies: [[UInt8]]?
}
