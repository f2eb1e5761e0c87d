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
  /// The recovery key of the bot's secret storage, as Element shows it (`EsT… …`), to recover its identity into a
  /// new database.
  package var recoveryKey: String?

  package init(enabled: Bool = true, trust: MatrixDeviceTrust = .crossSigned, recoveryKey: String? = nil) {
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
    let key = try container.decodeIfPresent(String.self, forKey: .recoveryKey)
    recoveryKey = (key?.isEmpty ?? true) ? nil : key
  }
}
