import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A free TCP port on 127.0.0.1 for a child process to listen on: bound once by the kernel, then released (the small
/// race is acceptable for a bench). Children are given a fixed port because the emulator's "listening on" line is
/// not flushed to a file until it exits.
enum SoakPort {
  static func free() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SoakError.setup("no socket for a free port") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
      }
    }
    guard bound else { throw SoakError.setup("cannot bind a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
