/// Why a configuration cannot be used: every problem at once, each as `key.path: reason`.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
  package var problems: [String]
  package init(problems: [String]) { self.problems = problems }
  package var description: String {
    "invalid configuration:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
  }

  /// `EX_CONFIG` from sysexits.h: supervisors (systemd's `RestartPreventExitStatus`) read it as "fix the
  /// configuration, restarting will not help".
  package static let exitCode: Int32 = 78
}
