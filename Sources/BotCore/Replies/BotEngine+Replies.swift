import BotStore
import ChatBridge
import Foundation

extension BotEngine {
  /// Queues a command's answer in the outbox, so it is retried (and counted when it fails) like a relayed post,
  /// and sent in order with the room's other messages. The key comes from the command message and the answer's
  /// number: the same command answered twice (a transport redelivering it) is queued once, and several answers to
  /// one message each get their own key.
  package func enqueueReply(_ reply: OutgoingMessage, answering message: IncomingMessage, answer: Int = 1)
    async throws
  {
    let room = RoomRef(transport: message.transport, room: message.room)
    let key = OutboxKey.reply(room, id: message.messageID ?? UUID().uuidString, answer: answer)
    let payload = try RelayCoding.encode(reply)
    let createdAt = now()
    try await database.write { tx in
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: .reply, payload: payload, idempotencyKey: key,
        createdAt: createdAt, reason: "answer to a command")
      try tx.enqueue(&row)
    }
    wakeDispatchers([room.transport])
  }
}
