/// Why the soak could not run or did not pass.
enum SoakError: Error, CustomStringConvertible {
  case setup(String)
  case failed(String)

  var description: String {
    switch self {
    case .setup(let reason): "soak: cannot run: \(reason)"
    case .failed(let reason): "soak: FAILED: \(reason)"
    }
  }
}
