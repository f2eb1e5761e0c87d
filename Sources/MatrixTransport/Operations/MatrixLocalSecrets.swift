import Foundation
import MatrixCrypto

#if canImport(Glibc)
  import Glibc
#endif

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

  /// The pickle key in `file`, made there first (48 random bytes, base64) when there is none. The file is created
  /// with mode 0600 in the same step (`O_CREAT | O_EXCL`), so it is never readable by others, not even for a moment,
  /// and a file made meanwhile by another start is read rather than replaced. A file that is there but cannot be read
  /// is an error: a new key would leave every stored encryption key unreadable.
  package static func loadOrCreatePickleKey(at file: URL) throws -> String {
    if let key = try readPickleKey(at: file) { return key }
    var generator = SystemRandomNumberGenerator()
    let key = Data((0..<48).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw MatrixLocalSecretsError(
        "cannot make the folder for the Matrix pickle key at \(file.path) (\(error)); give pickleKey in the config "
          + "instead")
    }
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      let code = errno
      // Another start made it between the read and the create: its key is the one.
      if code == EEXIST, let existing = try readPickleKey(at: file) { return existing }
      throw MatrixLocalSecretsError(
        "cannot write the generated Matrix pickle key to \(file.path) (\(String(cString: strerror(code)))); give "
          + "pickleKey in the config instead")
    }
    defer { close(descriptor) }
    let bytes = Array((key + "\n").utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count, fsync(descriptor) == 0 else {
      let code = errno
      unlink(file.path)
      throw MatrixLocalSecretsError(
        "cannot write the generated Matrix pickle key to \(file.path) (\(String(cString: strerror(code)))); give "
          + "pickleKey in the config instead")
    }
    return key
  }

  /// The key in `file`; nil when there is no such file. Throws when it is there but unreadable or empty.
  private static func readPickleKey(at file: URL) throws -> String? {
    let text: String
    do {
      text = try String(contentsOf: file, encoding: .utf8)
    } catch {
      guard FileManager.default.fileExists(atPath: file.path) else { return nil }
      throw MatrixLocalSecretsError(
        "\(file.path) holds the Matrix pickle key but cannot be read (\(error)); make it readable by the bot's user "
          + "(without it the stored encryption keys cannot be opened); a new key is not made, as it would lock them")
    }
    let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !key.isEmpty else {
      throw MatrixLocalSecretsError(
        "\(file.path) is empty: it should hold the Matrix pickle key; restore it from a backup (without it the "
          + "stored encryption keys cannot be opened)")
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
