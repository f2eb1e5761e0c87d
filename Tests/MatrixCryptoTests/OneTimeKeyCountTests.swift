import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixCrypto

extension LibOlmEncryptionTests {
  @Test(
    "a one-time key count from the homeserver of Int.min or a large negative tops the keys up to the target, no more",
    arguments: [Int.min, -1_000_000_000, -1])
  func hostileOneTimeKeyCount(count: Int) async throws {
    let world = try World()
    let crypto = machine(world, store: InMemoryTransportStateStore())
    try await crypto.start()
    let json = #"{"next_batch":"s1","device_one_time_keys_count":{"signed_curve25519":\#(count)}}"#
    _ = await crypto.receive(try JSONDecoder().decode(MatrixSyncResponse.self, from: Data(json.utf8)))
    let target = await crypto.oneTimeKeyTarget
    let uploaded = world.seen.withLock { seen in
      seen.uploaded.map { $0["one_time_keys"]?.objectValue?.count ?? 0 }.max() ?? 0
    }
    #expect(uploaded <= target)
    #expect(world.seen.withLock { $0.botOneTimeKeys.count } <= 2 * target)
  }
}
