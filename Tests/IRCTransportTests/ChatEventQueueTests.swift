import ChatBridge
import Testing

/// The bounded queue every transport hands its events to, and what it tells the transport to log.
@Suite("chat event queue")
struct ChatEventQueueTests {
  @Test("a full queue drops and counts; the first drop and every hundredth are reported, an ended stream is not a drop")
  func dropsAreCountedAndShutdownIsNot() {
    let queue = ChatEventQueue(limit: 2)
    let event = ChatEvent.connection(.connected)
    #expect(queue.offer(event) == .queued)
    #expect(queue.offer(event) == .queued)
    #expect(queue.offer(event) == .dropped(total: 1))
    #expect(ChatEventQueue.Outcome.dropped(total: 1).droppedToReport == 1)
    let reports = (2...200).compactMap { _ in queue.offer(event).droppedToReport }
    #expect(reports == [100, 200], "the first, then every hundredth")
    #expect(queue.dropped == 200)

    queue.finish()
    let afterShutdown = queue.offer(event)
    #expect(afterShutdown == .finished)
    #expect(afterShutdown.droppedToReport == nil, "shutting down is not a flood: nothing to warn about")
    #expect(queue.dropped == 200)
  }
}
