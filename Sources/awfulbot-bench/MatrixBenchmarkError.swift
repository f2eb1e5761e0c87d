/// Why the Matrix benchmark could not run, as a sentence for whoever started it (ArgumentParser prints it and exits
/// non-zero). Never carries the shared secret or a password.
enum MatrixBenchmarkError: Error, CustomStringConvertible {
  case missingHomeserver
  case missingSecret
  case homeserverUnreachable(url: String, reason: String)
  case registrationRefused(reason: String)
  case failed(String)

  var description: String {
    switch self {
    case .missingHomeserver:
      "no homeserver: pass --homeserver URL or set AWFULBOT_SYNAPSE_URL (scripts/with-synapse sets it)"
    case .missingSecret:
      "no registration secret: pass --registration-secret or set AWFULBOT_SYNAPSE_SECRET (scripts/with-synapse sets it)"
    case .homeserverUnreachable(let url, let reason):
      "the homeserver at \(url) is unreachable or not a Matrix homeserver (\(reason))"
    case .registrationRefused(let reason):
      "the homeserver refused the shared-secret registration; is the registration secret right? (\(reason))"
    case .failed(let reason):
      reason
    }
  }
}
