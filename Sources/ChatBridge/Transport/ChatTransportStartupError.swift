/// Why a transport could not start, as much as the app needs to know to react: whether trying again later can help.
/// Each transport's own error type adopts it, so the app judges a failure without knowing any concrete transport.
package protocol ChatTransportStartupError: Error {
  /// The service refused the configuration or the credentials: trying again cannot help until the operator changes
  /// something (`run` exits 78, which the systemd unit does not restart). False: the service may be back soon.
  var isPermanent: Bool { get }
}
