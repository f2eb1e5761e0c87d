import ChatBridge
import Foundation

/// Device tracking: which devices each room member has, from `/keys/query` (self-signatures and the owner's
/// cross-signing chain checked), refreshed when `/sync` lists the user under `device_lists.changed` or `left`.
extension LibOlmEncryption {
  func markOutdated(_ users: [String]) async {
    outdatedUsers.formUnion(users)
    for user in users { devices[user] = nil }
    do {
      try await store.write(outdatedUsers.sorted(), MatrixCryptoStore.Key.outdatedUsers)
    } catch {
      logger.warning("could not store device list changes", metadata: ["error": "\(error)"])
    }
  }

  /// The members' devices (the bot's own device left out), reading device lists that are unknown or outdated.
  func devices(of users: [String]) async throws -> [String: [String: MatrixCryptoStore.DeviceRecord]] {
    var result: [String: [String: MatrixCryptoStore.DeviceRecord]] = [:]
    var unknown: [String] = []
    for user in users {
      if outdatedUsers.contains(user) {
        unknown.append(user)
      } else if let known = devices[user] {
        result[user] = known
      } else if let stored = try await store.read(
        [String: MatrixCryptoStore.DeviceRecord].self, MatrixCryptoStore.Key.devices(user: user)),
        stored.values.allSatisfy({ $0.crossSigned != nil }),
        // Lists stored before identities were pinned are read again once, so the pin is taken from the server.
        try await store.read(String.self, MatrixCryptoStore.Key.pinnedIdentity(user: user)) != nil
      {
        devices[user] = stored
        result[user] = stored
      } else {
        unknown.append(user)
      }
    }
    if !unknown.isEmpty {
      let answer = try await api.queryKeys(users: unknown)
      for user in unknown {
        let chain = CrossSigningChain(user: user, answer: answer)
        let changed = try await identityChanged(of: user, masterKey: chain.masterKey)
        let list = verifiedDevices(
          of: user, in: answer["device_keys"]?[user]?.objectValue ?? [:], chain: chain, identityChanged: changed)
        devices[user] = list
        result[user] = list
        try await store.write(list, MatrixCryptoStore.Key.devices(user: user))
        outdatedUsers.remove(user)
      }
      try await store.write(outdatedUsers.sorted(), MatrixCryptoStore.Key.outdatedUsers)
    }
    result[userID]?[deviceID] = nil
    return result
  }

  /// Devices whose keys are signed by their own ed25519 key and name the right user and device; others are left out
  /// (and logged), so a homeserver cannot slip in keys of its own.
  private func verifiedDevices(
    of user: String, in answer: [String: JSONValue], chain: CrossSigningChain, identityChanged: Bool
  ) -> [String: MatrixCryptoStore.DeviceRecord] {
    var list: [String: MatrixCryptoStore.DeviceRecord] = [:]
    for (device, keys) in answer {
      guard let object = keys.objectValue, object["user_id"]?.stringValue == user,
        object["device_id"]?.stringValue == device,
        let curve = keys["keys"]?["curve25519:\(device)"]?.stringValue,
        let ed = keys["keys"]?["ed25519:\(device)"]?.stringValue,
        let signature = keys["signatures"]?[user]?["ed25519:\(device)"]?.stringValue,
        OlmSignature.verify(key: ed, message: CanonicalJSON.signable(object), signature: signature)
      else {
        logger.warning("ignoring device keys that do not verify", metadata: ["user": "\(user)", "device": "\(device)"])
        continue
      }
      list[device] = MatrixCryptoStore.DeviceRecord(
        deviceID: device, curve25519: curve, ed25519: ed, crossSigned: chain.isCrossSigned(device: keys),
        identityChanged: identityChanged ? true : nil)
    }
    return list
  }

  /// Whether the trust policy lets this device have room keys and give commands: cross-signed by an identity that is
  /// the pinned one (under `any`, every device: that policy checks no identity).
  func trusts(_ device: MatrixCryptoStore.DeviceRecord) -> Bool {
    identityOptions.trust == .any || (device.crossSigned == true && device.identityChanged != true)
  }

  /// The device of `user` that `matches` picks: from what is known, else from a fresh `/keys/query` (a device added
  /// since the list was read).
  func device(of user: String, where matches: (MatrixCryptoStore.DeviceRecord) -> Bool) async throws
    -> MatrixCryptoStore.DeviceRecord?
  {
    if let found = try await devices(of: [user])[user]?.values.first(where: matches) { return found }
    await markOutdated([user])
    return try await devices(of: [user])[user]?.values.first(where: matches)
  }
}
