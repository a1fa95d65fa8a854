import BowTieKit
import BowTieModel
import CLibFuzzer
import Foundation

/// The check libFuzzer's callback runs. Set once, before the driver starts; libFuzzer
/// calls back on the one thread that called it (`-jobs` and `-fork` use processes).
nonisolated(unsafe) private var check: (Data) -> Void = { _ in }

/// Runs libFuzzer with the process's command line, calling `body` with every input.
/// A trap, or a failed ``expect(_:_:file:line:)``, in `body` is a finding.
public func runLibFuzzer(_ body: @escaping (Data) -> Void) -> Never {
  check = body
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  let status = LLVMFuzzerRunDriver(&argc, &argv) { start, count in
    check(Data(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
  }
  exit(status)
}

/// Stops the run when an invariant does not hold, so that libFuzzer keeps the input.
/// `fatalError` rather than `precondition`, whose message `-O` drops.
public func expect(
  _ condition: Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition { fatalError(message(), file: file, line: line) }
}

/// The result of `body`, for steps that must not throw: an error stops the run.
public func must<T>(
  _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line,
  _ body: () throws -> T
) -> T {
  do {
    return try body()
  } catch {
    fatalError("\(what()) failed: \(error)", file: file, line: line)
  }
}

/// The color transformer as the store finds it: registered by name, as `bowties` does at
/// launch. A global, so registered once.
public let registeredTransformer: ColorAttributeTransformer = {
  ColorAttributeTransformer.register()
  let name = ColorAttributeTransformer.name
  guard let transformer = ValueTransformer.valueTransformer(forName: name),
    let colorTransformer = transformer as? ColorAttributeTransformer
  else { fatalError("\(name.rawValue) is not registered after register()") }
  return colorTransformer
}()
