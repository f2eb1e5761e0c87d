import Foundation

/// The soak's progress and report lines, written straight to stdout: a soak runs for hours under nohup, and
/// `print` to a file is block-buffered, so the log would lag by kilobytes.
enum SoakOutput {
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
