import Foundation

/// What `awfulbot check` says about a Matrix account's encryption, read from the stored state without starting
/// anything: whether keys exist, for which device, and the ed25519 fingerprint an admin compares by hand.
package enum MatrixEncryptionSetup {
  package enum State: Sendable, Hashable {
    /// Keys are made on the first run.
    case notCreated
    case ready(deviceID: String, fingerprint: String, published: Bool)
    /// The stored keys do not open with this pickle key.
    case wrongPickleKey(reason: String)
  }

  /// The store key holding the account (in the transport's namespace).
  package static let accountKey = MatrixCryptoStore.Key.account

  /// - Parameter storedAccount: the value under `accountKey`, nil when there is none.
  package static func state(storedAccount: String?, pickleKey: String) -> State {
    guard let storedAccount,
      let record = try? JSONDecoder().decode(MatrixCryptoStore.AccountRecord.self, from: Data(storedAccount.utf8))
    else { return .notCreated }
    do {
      let account = try OlmAccount.unpickle(record.pickle, key: Array(pickleKey.utf8))
      return .ready(
        deviceID: record.deviceID, fingerprint: try account.identityKeys().ed25519, published: record.uploaded)
    } catch let error as OlmError {
      return .wrongPickleKey(reason: error.reason)
    } catch {
      return .wrongPickleKey(reason: "\(error)")
    }
  }

  /// The fingerprint as clients show it: groups of four characters.
  package static func grouped(_ fingerprint: String) -> String {
    var groups: [String] = []
    var rest = Substring(fingerprint)
    while !rest.isEmpty {
      groups.append(String(rest.prefix(4)))
      rest = rest.dropFirst(4)
    }
    return groups.joined(separator: " ")
  }
}
