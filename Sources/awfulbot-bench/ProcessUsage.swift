import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// CPU time and peak resident memory of this process, from getrusage(2).
struct ProcessUsage {
  var cpuSeconds: Double
  var peakResidentMiB: Double

  static func now() -> ProcessUsage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1_000_000
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1_000_000
    // Linux reports ru_maxrss in KiB.
    return ProcessUsage(cpuSeconds: user + system, peakResidentMiB: Double(usage.ru_maxrss) / 1024)
  }
}
