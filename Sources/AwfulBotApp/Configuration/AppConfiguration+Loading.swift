import BotCore
import ChatBridge
import Foundation

/// A loaded configuration and what is worth telling the operator about it without refusing it.
package struct LoadedConfiguration: Sendable {
  package var configuration: AppConfiguration
  package var warnings: [String]
}

extension AppConfiguration {
  /// Reads and validates a config file; throws a `ConfigurationError` listing every problem.
  package static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws -> AppConfiguration
  {
    try loadReportingWarnings(path: path, environment: environment).configuration
  }

  /// Like `load`, and also returns warnings (a config file others can read while it holds a literal secret).
  package static func loadReportingWarnings(
    path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> LoadedConfiguration {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ConfigurationError(problems: ["\(path): cannot read the file (\(Self.reason(error)))"])
    }
    let configuration = try parse(data: data, source: path, environment: environment)
    return LoadedConfiguration(
      configuration: configuration, warnings: permissionWarnings(path: path, configuration: configuration))
  }

  /// Reads a config file for the tools that only need its data directory and transport names (`status`,
  /// `export`, `import`, `migrate`): everything is checked except that the secrets are set.
  package static func loadIgnoringSecrets(path: String) throws -> AppConfiguration {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ConfigurationError(problems: ["\(path): cannot read the file (\(Self.reason(error)))"])
    }
    return try parse(data: data, source: path, environment: [:], checksSecrets: false)
  }

  /// The database path a config file names even when the file does not validate (its `dataDirectory`, read from the
  /// JSON alone), so `status` still shows a running bot after someone saved a broken edit; nil when the file is not
  /// JSON or its `dataDirectory` is not a string.
  package static func databasePathIgnoringProblems(path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path),
      case .object(let top)? = try? JSONDecoder().decode(JSONValue.self, from: data)
    else { return nil }
    let directory: String?
    switch top["dataDirectory"] {
    case .string(let value)?: directory = value
    case nil, .null?: directory = nil
    default: return nil
    }
    return databasePath(dataDirectory: directory)
  }

  /// Parses and validates config JSON.
  package static func parse(
    data: Data, source: String = "configuration", environment: [String: String] = ProcessInfo.processInfo.environment,
    checksSecrets: Bool = true
  ) throws -> AppConfiguration {
    do {
      return try ConfigurationDecoding.decode(
        AppConfiguration.self, from: data, environment: environment, checksSecrets: checksSecrets)
    } catch let error as ConfigurationError {
      throw error
    } catch {
      throw ConfigurationError(problems: ["\(source): not valid JSON (\(Self.reason(error)))"])
    }
  }

  /// Checks a configuration built in code (`setup`, `demo`) exactly as a file would be checked.
  package func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    let data = try JSONEncoder().encode(self)
    _ = try Self.parse(data: data, environment: environment)
  }

  /// Key paths of the secrets written literally in the configuration.
  package var literalSecretPaths: [String] {
    var paths: [String] = []
    if forum.password.isLiteral { paths.append("forum.password") }
    for (index, transport) in transports.enumerated() {
      for key in transport.secretKeys where transport.writtenSecrets[key]?.isLiteral == true {
        paths.append("transports[\(index)].\(key)")
      }
    }
    return paths
  }

  /// A warning when group or others may read a file that holds literal secrets.
  static func permissionWarnings(path: String, configuration: AppConfiguration) -> [String] {
    let secrets = configuration.literalSecretPaths
    guard !secrets.isEmpty,
      let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o044 != 0
    else { return [] }
    return [
      "\(path) is readable by other users (mode \(String(mode & 0o777, radix: 8))) and holds "
        + "\(secrets.joined(separator: ", ")) as literal text: run `chmod 600 \(path)`, or give secrets as "
        + "{\"env\": \"NAME\"} (see config.example.json)"
    ]
  }

  private static func reason(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return underlying ?? context.debugDescription
    }
    return (error as NSError).localizedDescription
  }
}
