import Foundation
import MatrixTransport

extension TransportKind {
  /// The files a transport keeps in the data directory that belong with a backup of the database (`awfulbot backup`
  /// prints them). Here rather than in the backup code because only this folder may know the transports' modules;
  /// the switch is exhaustive so a new transport type has to say what it keeps.
  package static func keptFiles(for settings: TransportSettings, dataDirectory: URL) -> [BackupKeptFile] {
    switch settings.type {
    case .console, .irc: return []
    case .matrix: return matrixKeptFiles(settings, dataDirectory: dataDirectory)
    }
  }

  private static func matrixKeptFiles(_ settings: TransportSettings, dataDirectory: URL) -> [BackupKeptFile] {
    // Encryption is on unless the config turns it off; off, the bot keeps no key files.
    guard settings.options["encryption"]?["enabled"]?.boolValue ?? true else { return [] }
    let name = settings.resolvedName
    var files: [BackupKeptFile] = []
    let pickle = MatrixLocalSecrets.pickleKeyFile(dataDirectory: dataDirectory, transport: name)
    let pickleExists = FileManager.default.fileExists(atPath: pickle.path)
    // A pickle key given in the config (or its environment) replaces the file; one left from before still counts.
    if pickleExists || settings.options["pickleKey"] == nil || settings.options["pickleKey"] == .null {
      files.append(
        BackupKeptFile(
          path: pickle.path,
          purpose: "the key transport \(name)'s Matrix encryption state in the database is sealed with; without it "
            + "the backup's Matrix keys cannot be opened",
          exists: pickleExists))
    }
    let recovery = MatrixLocalSecrets.recoveryKeyFile(dataDirectory: dataDirectory, transport: name)
    files.append(
      BackupKeptFile(
        path: recovery.path,
        purpose: "transport \(name)'s Matrix recovery key, which brings the bot's cross-signing identity back into "
          + "a new database",
        exists: FileManager.default.fileExists(atPath: recovery.path)))
    return files
  }
}
