import CLibFuzzer
import Foundation

/// The target this process fuzzes, from `AWFULBOT_FUZZ_TARGET` (scripts/fuzz sets it): one executable serves every
/// target, and libFuzzer keeps the command line for its own options.
let selectedTarget: FuzzTarget = {
  let name = ProcessInfo.processInfo.environment["AWFULBOT_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("set AWFULBOT_FUZZ_TARGET to one of: \(names)\n".utf8))
    exit(2)
  }
  return target
}()

/// libFuzzer's entry point: one input, any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
  selectedTarget.run(bytes)
  return 0
}

/// The program's `main`. SwiftPM links an executable target with `main` aliased to `<module>_main`, which a module
/// without `@main` (built `-parse-as-library`, as libFuzzer needs) must define itself; libFuzzer's own `main` is then
/// not linked, so this hands the command line to its driver.
@_cdecl("awfulbot_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  _ = selectedTarget
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    fuzzOneInput(data, size)
  }
}
