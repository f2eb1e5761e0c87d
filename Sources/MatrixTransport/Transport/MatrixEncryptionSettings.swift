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

  enum CodingKeys: String, CodingKey {
    case enabled, trust, recoveryKey
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
    let trustName = try container.decodeIfPresent(String.self, forKey: .trust) ?? MatrixDeviceTrust.crossSigned.rawValue
    guard let trust = MatrixDeviceTrust(rawValue: trustName) else {
      throw DecodingError.dataCorruptedError(
        forKey: .trust, in: container, debugDescription: "unknown trust “\(trustName)” (cross-signed, any)")
    }
    self.trust = trust
    let typed = try container.decodeIfPresent(String.self, forKey: .recoveryKey) ?? ""
    do {
      recoveryKey = typed.isEmpty ? nil : try RecoveryKey(parsing: typed)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .recoveryKey, in: container, debugDescription: error.description)
    }
  }

  /// Written as it is read: the recovery key in Element's form.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(enabled, forKey: .enabled)
    try container.encode(trust, forKey: .trust)
    try container.encodeIfPresent(recoveryKey?.displayed, forKey: .recoveryKey)
  }
}
