import BotStore
import Foundation
import MatrixTransport

/// The `check` line about a Matrix transport's end-to-end encryption: off (no pickle key), keys not made yet, or set
/// up for a device with its ed25519 fingerprint. Reads the database read-only; never prints the pickle key.
enum MatrixEncryptionCheck {
  static func result(
    settings: TransportSettings, databasePath: String, environment: [String: String]
  ) -> CheckResult? {
    guard settings.type == TransportKind.matrix.type else { return nil }
    let name = "encryption \(settings.resolvedName)"
    guard
      let configuration = try? settings.decodeOptions(
        MatrixTransportConfiguration.self, kind: .matrix, environment: environment)
    else { return nil }
    guard let pickleKey = configuration.pickleKey, !pickleKey.isEmpty else {
      return CheckResult(
        .skip, name, detail: "off: encrypted rooms get a notice that the bot cannot read them",
        fix: "set pickleKey (a long random secret, e.g. {\"env\": \"AWFULBOT_MATRIX_PICKLE_KEY\"}) to read and "
          + "write encrypted rooms")
    }
    var stored: String?
    if FileManager.default.fileExists(atPath: databasePath) {
      do {
        let database = try ReadOnlyDatabase(path: databasePath)
        defer { try? database.close() }
        let namespace = BotDatabaseStateStore.namespace(transport: configuration.name)
        stored = try database.read { tx in
          try tx.value(namespace: namespace, key: MatrixEncryptionSetup.accountKey)
        }
      } catch {
        return CheckResult(.fail, name, detail: "the database cannot be read: \(error)")
      }
    }
    switch MatrixEncryptionSetup.state(storedAccount: stored, pickleKey: pickleKey) {
    case .notCreated:
      return CheckResult(.pass, name, detail: "on; the device's keys are made and published on the first run")
    case .ready(let device, let fingerprint, let published):
      return CheckResult(
        published ? .pass : .warn, name,
        detail: "on for device \(device), ed25519 fingerprint \(MatrixEncryptionSetup.grouped(fingerprint))"
          + (published ? "" : " (keys not published yet; the next run does)"))
    case .wrongPickleKey(let reason):
      return CheckResult(
        .fail, name, detail: "the stored keys do not open with this pickle key (\(reason))",
        fix: "restore the pickle key they were saved with; a new key means a new device users must verify again")
    }
  }
}
