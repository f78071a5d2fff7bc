internal import Foundation

// SwiftPM gives every executable its own `main`, so libFuzzer's is not linked in:
// hand control to libFuzzer's driver with `fuzzOneInput` as the callback.

@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argumentCount = CommandLine.argc
var argumentVector = CommandLine.unsafeArgv
exit(runLibFuzzerDriver(&argumentCount, &argumentVector, fuzzOneInput))
