import ChatBridge

/// The `metrics` section: the HTTP listener for `/metrics`, `/healthz` and `/readyz`.
package struct MetricsSettings: Sendable, Encodable, Hashable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case enabled, listen
  }

  package static let defaultListen = HostPort(host: "127.0.0.1", port: 9464)

  /// Default true: the listener runs unless turned off.
  package var enabled: Bool?
  /// `host:port`; default `127.0.0.1:9464` (loopback only: put a proxy in front to expose it).
  package var listen: HostPort?

  package init(enabled: Bool? = nil, listen: HostPort? = nil) {
    self.enabled = enabled
    self.listen = listen
  }

  package var isEnabled: Bool { enabled ?? true }

  /// The address to bind.
  package var address: HostPort { listen ?? Self.defaultListen }
}
