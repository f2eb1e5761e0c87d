/// What `/readyz` answers: ready when logged in to the forum and every transport is connected.
package struct Readiness: Sendable, Hashable {
  /// Why not ready, one line each; empty when ready.
  package var problems: [String]

  package init(problems: [String]) { self.problems = problems }

  package var isReady: Bool { problems.isEmpty }
}
