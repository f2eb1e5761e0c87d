import ChatBridge

/// One user's cross-signing keys as a `/keys/query` answer publishes them, with every signature checked: the master
/// key, the self-signing key only when the master key signed it, and per device whether that self-signing key signed
/// it. A device passes `isCrossSigned` exactly when Element's "exclude insecure devices" policy counts it as secure
/// (MSC4153: signed by its owner's self-signing key, which the owner's master key signed).
package struct CrossSigningChain: Sendable, Hashable {
  package let user: String
  /// The master key's public ed25519 key, when a well-formed one is published.
  package let masterKey: String?
  /// The self-signing key's public key, when it is published, well formed and signed by the master key.
  package let selfSigningKey: String?
  /// What is wrong with the chain above the devices, as a phrase ("no master key"); nil when it is intact.
  package let problem: String?

  /// Reads `master_keys[user]` and `self_signing_keys[user]` of a `/keys/query` answer.
  package init(user: String, answer: JSONValue) {
    self.user = user
    let master = Self.singleKey(answer["master_keys"]?[user], user: user, usage: "master")
    guard let master else {
      (masterKey, selfSigningKey, problem) = (nil, nil, "no cross-signing identity (no master key is published)")
      return
    }
    masterKey = master.key
    guard let selfSigning = Self.singleKey(answer["self_signing_keys"]?[user], user: user, usage: "self_signing") else {
      (selfSigningKey, problem) = (nil, "no self-signing key is published")
      return
    }
    guard Self.isSigned(selfSigning.object, by: master.key, user: user) else {
      (selfSigningKey, problem) = (nil, "the self-signing key is not signed by the master key")
      return
    }
    selfSigningKey = selfSigning.key
    problem = nil
  }

  /// Whether the device's keys (an entry of `device_keys[user]`) carry a valid signature of the self-signing key.
  package func isCrossSigned(device: JSONValue) -> Bool {
    guard let selfSigningKey, let object = device.objectValue, object["user_id"]?.stringValue == user else {
      return false
    }
    return Self.isSigned(object, by: selfSigningKey, user: user)
  }

  /// Why a device is not cross-signed, as a phrase; nil when it is.
  package func problem(device: JSONValue) -> String? {
    if let problem { return problem }
    return isCrossSigned(device: device) ? nil : "the device is not signed by its owner's self-signing key"
  }

  /// Whether the master key carries a signature of the given device (how the device's own client trusts it).
  package func masterIsSigned(byDevice deviceID: String, key: String, answer: JSONValue) -> Bool {
    guard let object = answer["master_keys"]?[user]?.objectValue,
      let signature = object["signatures"]?[user]?["ed25519:\(deviceID)"]?.stringValue
    else { return false }
    return OlmSignature.verify(key: key, message: CanonicalJSON.signable(object), signature: signature)
  }

  /// A cross-signing key object naming `user` and `usage` with exactly one ed25519 key whose id is the key itself.
  private static func singleKey(_ value: JSONValue?, user: String, usage: String)
    -> (key: String, object: [String: JSONValue])?
  {
    guard let object = value?.objectValue, object["user_id"]?.stringValue == user,
      object["usage"]?.arrayValue?.contains(.string(usage)) == true, let keys = object["keys"]?.objectValue,
      keys.count == 1, let (id, key) = keys.first, let publicKey = key.stringValue, id == "ed25519:\(publicKey)"
    else { return nil }
    return (publicKey, object)
  }

  static func isSigned(_ object: [String: JSONValue], by key: String, user: String) -> Bool {
    guard let signature = object["signatures"]?[user]?["ed25519:\(key)"]?.stringValue else { return false }
    return OlmSignature.verify(key: key, message: CanonicalJSON.signable(object), signature: signature)
  }
}
