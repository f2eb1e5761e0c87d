import Foundation
import Testing

@testable import MatrixCrypto

/// The libolm wrappers against libolm itself: two devices talk Olm, a room talks Megolm, pickles survive.
@Suite struct LibOlmTests {
  let key = Array("pickle key for tests".utf8)

  @Test func olmRoundTripBetweenTwoAccountsSurvivesPickling() throws {
    let alice = try OlmAccount.create()
    let bob = try OlmAccount.create()
    try bob.generateOneTimeKeys(1)
    let bobOneTimeKey = try #require(try bob.oneTimeKeys().values.first)
    let bobKeys = try bob.identityKeys()
    let aliceKeys = try alice.identityKeys()
    #expect(aliceKeys.curve25519 != bobKeys.curve25519)

    let outbound = try OlmSession.outbound(
      account: alice, theirIdentityKey: bobKeys.curve25519, theirOneTimeKey: bobOneTimeKey)
    let first = try outbound.encrypt("hello bob")
    #expect(first.type == 0)

    let restoredBob = try OlmAccount.unpickle(try bob.pickle(key: key), key: key)
    let inbound = try OlmSession.inbound(
      account: restoredBob, theirIdentityKey: aliceKeys.curve25519, preKeyMessage: first.body)
    #expect(inbound.matchesInbound(theirIdentityKey: aliceKeys.curve25519, preKeyMessage: first.body))
    #expect(try inbound.decrypt(type: first.type, body: first.body) == "hello bob")
    try restoredBob.removeOneTimeKeys(for: inbound)
    #expect(try restoredBob.oneTimeKeys().isEmpty)

    let reply = try OlmSession.unpickle(try inbound.pickle(key: key), key: key).encrypt("hi alice")
    #expect(reply.type == 1)
    #expect(try outbound.decrypt(type: reply.type, body: reply.body) == "hi alice")
    #expect(throws: OlmError.self) { try OlmAccount.unpickle(try alice.pickle(key: key), key: Array("wrong".utf8)) }
  }

  @Test func megolmReadersDecryptFromTheSharedIndexOn() throws {
    let outbound = try MegolmOutboundSession.create()
    #expect(outbound.messageIndex == 0)
    let early = try outbound.encrypt("before the key was shared")
    let sessionKey = try outbound.sessionKey()
    let restored = try MegolmOutboundSession.unpickle(try outbound.pickle(key: key), key: key)
    #expect(restored.messageIndex == 1)
    #expect(restored.id == outbound.id)
    let message = try restored.encrypt("after")
    let inbound = try MegolmInboundSession.create(sessionKey: sessionKey)
    #expect(inbound.id == outbound.id)
    let decrypted = try inbound.decrypt(message)
    #expect(decrypted.plaintext == "after")
    #expect(decrypted.index == 1)
    #expect(throws: OlmError.self) { try inbound.decrypt(early) }
  }

  @Test func signaturesVerifyOnlyForTheSignedMessage() throws {
    let account = try OlmAccount.create()
    let signature = try account.sign(#"{"a":1}"#)
    let ed25519 = try account.identityKeys().ed25519
    #expect(OlmSignature.verify(key: ed25519, message: #"{"a":1}"#, signature: signature))
    #expect(!OlmSignature.verify(key: ed25519, message: #"{"a":2}"#, signature: signature))
  }
}
