import ChatBridge
import MatrixCrypto

/// The `encryption` object of a Matrix transport in the config file:
///
/// ```json
/// "encryption": { "enabled": true, "trust": "cross-signed", "recoveryKey": {"env": "AWFULBOT_MATRIX_RECOVERY_KEY"} }
/// ```
package struct MatrixEncryptionSettings: Sendable, Hashable, Codable {
  /// On by default. Off: the bot tells each encrypted room once that it cannot take part, and sends nothing there.
  package var enabled: Bool
  /// Which devices get room keys and may give commands: `cross-signed` (Element's policy, the default) or `any`.
  package var trust: MatrixDeviceTrust
  /// The recovery key of the bot's secret storage, written as Element shows it (`EsT… …`) and read when the config
  /// is, to recover the bot's identity into a new database.
  package var recoveryKey: RecoveryKey?

  package init(enabled: Bool = true, trust: MatrixDeviceTrust = .crossSigned, recoveryKey: RecoveryKey? = nil) {
    self.enabled = enabled
    self.trust = trust
    self.recoveryKey = recoveryKey
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case enabled, trust, recoveryKey
  }

  /// Reads every key, each problem with its key (`trust`, `recoveryKey`; `MatrixConfigurationError`). The recovery
  /// key's problem never shows the key (a secret).
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>(decoder)
    reader.reportUnknownKeys(
      known: CodingKeys.allCases.map(\.stringValue), reason: "unknown key (enabled, trust, recoveryKey)",
      suggests: false)
    enabled = reader.bool(.enabled) ?? true
    trust = .crossSigned
    recoveryKey = nil
    if let written = reader.raw(.trust) {
      if let chosen = written.stringValue.flatMap(MatrixDeviceTrust.init(rawValue:)) {
        trust = chosen
      } else {
        reader.report("trust", "expected \(MatrixDeviceTrust.allCases.map(\.rawValue).joined(separator: " or "))")
      }
    }
    switch reader.raw(.recoveryKey) {
    case nil, .string("")?: break
    case .string(let typed)?:
      do {
        recoveryKey = try RecoveryKey(parsing: typed)
      } catch {
        reader.report("recoveryKey", error.description)
      }
    default: reader.report("recoveryKey", "expected the recovery key as Element shows it, or {\"env\": \"NAME\"}")
    }
    if !reader.problems.isEmpty { throw MatrixConfigurationError(reader.problems) }
  }

  /// Written as it is read: the recovery key in Element's form.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(enabled, forKey: .enabled)
    try container.encode(trust, forKey: .trust)
    try container.encodeIfPresent(recoveryKey?.displayed, forKey: .recoveryKey)
  }
}
