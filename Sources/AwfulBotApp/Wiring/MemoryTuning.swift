#if canImport(Glibc)
  import Glibc
#endif

/// Process-wide allocator settings for the long-running daemon. glibc gives each thread that allocates its own malloc
/// arena (up to eight per core) and keeps the memory freed in each for reuse, so a process whose work moves between
/// NIO's and Swift's pool threads grows by the high-water mark of every arena for its first quarter hour and then
/// holds it (measured with awfulbot-bench soak: the arenas went from 6 to 14 MiB while the live heap stayed under
/// 8 MiB). Two arenas are plenty for a bot that does one thing at a time.
package enum MemoryTuning {
  /// `M_ARENA_MAX` in glibc's <malloc.h>.
  static let arenaMaximumParameter: Int32 = -8

  package static func applyForDaemon() {
    #if canImport(Glibc)
      // An environment MALLOC_ARENA_MAX set by the operator wins. Swift's Glibc module leaves out <malloc.h>, so
      // mallopt is looked up by name.
      guard getenv("MALLOC_ARENA_MAX") == nil, let symbol = dlsym(nil, "mallopt") else { return }
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
      _ = mallopt(arenaMaximumParameter, 2)
    #endif
  }
}
