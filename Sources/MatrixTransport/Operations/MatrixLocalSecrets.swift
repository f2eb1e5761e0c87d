import Foundation

/// The Matrix secrets the bot keeps beside its database when the config does not give them: the pickle key its
/// encryption state is sealed with (made on the first start, readable only by the bot's user) and the file a new
/// recovery key is handed over in. Both belong in a backup with the database; see the README's encryption section.
package enum MatrixLocalSecrets {
  package static func pickleKeyFile(dataDirectory: URL, transport: String) -> URL {
    dataDirectory.appendingPathComponent("matrix-\(transport).pickle-key")
  }

  package static func recoveryKeyFile(dataDirectory: URL, transport: String) -> URL {
    dataDirectory.appendingPathComponent("matrix-\(transport).recovery-key.txt")
  }

  /// The pickle key in `file`, made there first (48 random bytes, base64, mode 0600) when there is none.
  package static func loadOrCreatePickleKey(at file: URL) throws -> String {
    if let text = try? String(contentsOf: file, encoding: .utf8) {
      let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !key.isEmpty else {
        throw MatrixLocalSecretsError(
          "\(file.path) is empty: it should hold the Matrix pickle key; restore it from a backup (without it the "
            + "stored encryption keys cannot be opened)")
      }
      return key
    }
    var generator = SystemRandomNumberGenerator()
    let key = Data((0..<48).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      guard
        FileManager.default.createFile(
          atPath: file.path, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o600])
      else { throw CocoaError(.fileWriteUnknown) }
    } catch {
      throw MatrixLocalSecretsError(
        "cannot write the generated Matrix pickle key to \(file.path) (\(error)); give pickleKey in the config instead")
    }
    return key
  }

  /// The recovery key in a file the bot wrote (the first line that reads as one), nil when there is none.
  package static func recoveryKey(in file: URL) -> RecoveryKey? {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") {
      if let key = try? RecoveryKey(parsing: String(line)) { return key }
    }
    return nil
  }
}
