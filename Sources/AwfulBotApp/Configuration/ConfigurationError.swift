import ChatBridge

/// Why a configuration cannot be used: every problem at once, each at its key path.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
  package var found: [ConfigProblem]

  package init(_ found: [ConfigProblem]) { self.found = found }
  /// Problems said as whole sentences (about the configuration as a whole, or already naming their key).
  package init(problems: [String]) { found = problems.map { ConfigProblem("", $0) } }

  /// Each problem as `key.path: reason`.
  package var problems: [String] { found.map(\.description) }

  package var description: String {
    "invalid configuration:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
  }

  /// `EX_CONFIG` from sysexits.h: supervisors (systemd's `RestartPreventExitStatus`) read it as "fix the
  /// configuration, restarting will not help".
  package static let exitCode: Int32 = 78
}
