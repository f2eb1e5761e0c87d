import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks questions on the terminal for `setup`.
package struct SetupPrompter: Sendable {
  package init() {}

  /// Prints the question (with its default) and reads one line; nil at end of input.
  package func ask(_ question: String, default fallback: String?) -> String? {
    let suffix = fallback.map { " [\($0)]" } ?? ""
    FileHandle.standardError.write(Data("\(question)\(suffix): ".utf8))
    return readLine()?.trimmingCharacters(in: .whitespaces)
  }

  /// Reads a line without echoing it (a password or token), when the input is a terminal.
  package func askSecret(_ question: String) -> String? {
    FileHandle.standardError.write(Data("\(question): ".utf8))
    let fd = FileHandle.standardInput.fileDescriptor
    var original = termios()
    let isTerminal = isatty(fd) != 0 && tcgetattr(fd, &original) == 0
    if isTerminal {
      var silent = original
      silent.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(fd, TCSAFLUSH, &silent)
    }
    let line = readLine()
    if isTerminal {
      tcsetattr(fd, TCSAFLUSH, &original)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    return line
  }
}
