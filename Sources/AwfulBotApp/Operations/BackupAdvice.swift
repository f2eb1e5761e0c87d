import Foundation

/// What `awfulbot backup` prints after the copy: what else a restore needs that the database does not hold (the key
/// files beside it, the config file, the secrets it reads from the environment). It names files, key paths and
/// variables, and never reads a secret, so no value can end up on the terminal or in a log.
package struct BackupAdvice: Sendable, Hashable {
  package var keptFiles: [BackupKeptFile]
  /// The config file, when the backup was made with `--config`.
  package var configurationPath: String?
  /// Key paths of the secrets written in the config file itself.
  package var secretsInConfigFile: [String]
  /// `$NAME (key.path)` for each secret the config reads from a variable.
  package var secretVariables: [String]
  /// Variables read for secrets the config leaves out, which matter only when the bot's environment sets them.
  package var fallbackVariables: [String]
  /// With `--database` (no config to go by): the other files beside the database.
  package var otherFiles: [String]

  /// The advice for the database at `databasePath`, from its configuration when there is one.
  package static func make(configuration: AppConfiguration?, configurationPath: String?, databasePath: String)
    -> BackupAdvice
  {
    let dataDirectory = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
    guard let configuration else {
      return BackupAdvice(
        keptFiles: [], configurationPath: nil, secretsInConfigFile: [], secretVariables: [], fallbackVariables: [],
        otherFiles: otherFiles(beside: databasePath))
    }
    var inFile: [String] = []
    var variables: [String] = []
    var fallbacks: [String] = []
    switch configuration.forum.password.source {
    case .literal: inFile.append("forum.password")
    case .environment(let name): variables.append("$\(name) (forum.password)")
    }
    var kept: [BackupKeptFile] = []
    for (index, transport) in configuration.transports.enumerated() {
      kept += transport.keptFiles(dataDirectory: dataDirectory)
      for key in transport.secretKeys {
        let path = "transports[\(index)].\(key)"
        switch transport.writtenSecrets[key]?.source {
        case .literal?: inFile.append(path)
        case .environment(let variable)?: variables.append("$\(variable) (\(path))")
        case nil:
          fallbacks.append("$" + TransportSettings.environmentVariable(transport: transport.resolvedName, key: key))
        }
      }
    }
    return BackupAdvice(
      keptFiles: kept, configurationPath: configurationPath, secretsInConfigFile: inFile, secretVariables: variables,
      fallbackVariables: fallbacks, otherFiles: [])
  }

  /// What a backup is, said first: the database holds the forum session's cookies and the Matrix access token of a
  /// password login in clear (the encryption state is sealed by the pickle key, which is not in it), so whoever has
  /// the file can act as the bot until those sessions end.
  package static let credentialWarning =
    "the backup is a credential: it holds the forum login cookies and the Matrix access token in clear, so whoever "
    + "has it can post as the bot; it is mode 0600: keep it, and every copy of it, as you keep the forum password"

  /// The advice as the command prints it.
  package var lines: [String] {
    var lines = [Self.credentialWarning, "keep with the backup what it does not hold:"]
    for file in keptFiles {
      let missing = file.exists ? "" : " (not there now)"
      lines.append("  - \(file.path)\(missing): \(file.purpose)")
    }
    if let configurationPath {
      if secretsInConfigFile.isEmpty {
        lines.append("  - the config file \(configurationPath)")
      } else {
        lines.append(
          "  - the config file \(configurationPath), which holds \(secretsInConfigFile.joined(separator: ", ")) "
            + "(keep that copy as private as the backup)")
      }
      if !secretVariables.isEmpty {
        lines.append("  - the secrets it reads from the environment: \(secretVariables.joined(separator: ", "))")
      }
      if !fallbackVariables.isEmpty {
        lines.append("  - and, if the bot's environment sets them: \(fallbackVariables.joined(separator: ", "))")
      }
    } else {
      lines.append(
        "  - the config file and the secrets it reads from the environment (give --config instead of --database to "
          + "have each named)")
      if !otherFiles.isEmpty {
        lines.append(
          "  - the other files beside the database, which may hold keys: \(otherFiles.joined(separator: ", "))")
      }
    }
    return lines
  }

  /// Files in the database's directory that are neither the database, its WAL files, nor a copy of it.
  static func otherFiles(beside databasePath: String) -> [String] {
    let url = URL(fileURLWithPath: databasePath)
    let name = url.lastPathComponent
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
    return names.filter { file in
      var isDirectory: ObjCBool = false
      let path = url.deletingLastPathComponent().appendingPathComponent(file).path
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
        return false
      }
      return !file.hasPrefix(name) && !file.hasPrefix(".") && DatabaseBackup.date(fromFileName: file) == nil
    }.sorted().map { url.deletingLastPathComponent().appendingPathComponent($0).path }
  }
}
