import ChatBridge
import Foundation
import MatrixCrypto
import MatrixModel
import Testing

@testable import MatrixTransport

@Suite("Undecryptable messages")
struct MatrixUndecryptedEventsTests {
  func event(_ id: String, from sender: String) -> MatrixEvent {
    MatrixEvent(type: "m.room.encrypted", sender: sender, eventID: id, content: [:])
  }

  @Test("told at most once an hour per room and sender, however many session ids they choose")
  func oncePerRoomAndSender() {
    var waiting = MatrixUndecryptedEvents()
    let start = ContinuousClock.now
    for index in 0..<50 {
      let session = MatrixMegolmSessionID(room: "!r", senderKey: "k", sessionID: "s\(index)")
      waiting.add(event("$\(index)", from: "@eve:x"), room: "!r", session: session, now: start)
    }
    waiting.add(
      event("$bob", from: "@bob:x"), room: "!r",
      session: MatrixMegolmSessionID(room: "!r", senderKey: "b", sessionID: "b"),
      now: start)
    let told = waiting.expired(olderThan: .seconds(30), now: start + .seconds(31))
    #expect(told.map { $0.event.sender ?? "" }.sorted() == ["@bob:x", "@eve:x"], "one each")
    let more = MatrixMegolmSessionID(room: "!r", senderKey: "k", sessionID: "another")
    waiting.add(event("$later", from: "@eve:x"), room: "!r", session: more, now: start + .seconds(60))
    #expect(waiting.expired(olderThan: .seconds(30), now: start + .seconds(100)).isEmpty, "not within the hour")
    waiting.add(event("$next", from: "@eve:x"), room: "!r", session: more, now: start + .seconds(3_700))
    #expect(waiting.expired(olderThan: .seconds(30), now: start + .seconds(3_740)).count == 1, "an hour later, again")
  }
}
