import Foundation

/// Progress of a long operation (an import, a first full bookmarks fetch) on standard error, redrawn in place,
/// only when standard error is a terminal: logs and pipes get no progress noise.
package struct ProgressReporter: Sendable {
  private let isEnabled: Bool
  private let write: @Sendable (String) -> Void

  /// Whether standard error is a terminal.
  package static var isTerminal: Bool { isatty(FileHandle.standardError.fileDescriptor) != 0 }

  package init(
    enabled: Bool = ProgressReporter.isTerminal,
    write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.isEnabled = enabled
    self.write = write
  }

  /// `label: done/total` (or `label: done` when the total is unknown), over the previous line.
  package func update(_ label: String, done: Int, total: Int? = nil) {
    guard isEnabled else { return }
    let count = total.map { "\(done)/\($0)" } ?? "\(done)"
    write("\r\u{1B}[2K\(label): \(count)")
  }

  /// Ends the progress line.
  package func finish() {
    guard isEnabled else { return }
    write("\n")
  }
}
