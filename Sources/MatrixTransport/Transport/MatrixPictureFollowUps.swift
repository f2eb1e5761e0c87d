import ChatBridge
import Logging

/// The pictures of relays already sent, waiting to follow them: `MatrixTransport.send` hands a relay's pictures here
/// and returns, so a slow or hostile picture host never holds up the relay or the room's next messages; `run` (part
/// of the transport's own `run`) fetches, uploads and sends them one relay at a time. Bounded: beyond `capacity`
/// waiting relays the newest's pictures stay links (logged), as they are in the relay's text anyway.
///
/// What waits here is also kept in the transport's state store (`MatrixPendingPictures`) until it is sent, so the
/// pictures of a relay sent just before a stop or a crash follow it after the restart.
final class MatrixPictureFollowUps: Sendable {
  /// One relay's pictures.
  struct Job: Sendable, Codable {
    var room: String
    /// The relay as sent, already annotated with the reasons known before it went out.
    var message: OutgoingMessage
    var relayEventID: String
    var thread: MatrixThreadPosition?
    var idempotencyKey: String
    var pictures: [MatrixTransport.Picture]
  }

  static let capacity = 256

  let jobs: AsyncStream<Job>
  private let continuation: AsyncStream<Job>.Continuation

  init() {
    (jobs, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingOldest(Self.capacity))
  }

  /// Queues a relay's pictures; false when the queue is full or closed (the pictures stay links).
  func enqueue(_ job: Job) -> Bool {
    if case .enqueued = continuation.yield(job) { return true }
    return false
  }

  /// No more jobs: `jobs` ends after what is queued.
  func finish() { continuation.finish() }
}
