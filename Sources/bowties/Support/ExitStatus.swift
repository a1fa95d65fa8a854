import ArgumentParser
import BowTieKit
import Foundation

/// The one place where failures become exit codes, documented in the README and `--help`.
enum ExitStatus {
  static let noSuchTie: Int32 = 1
  static let usage: Int32 = 64  // EX_USAGE
  static let invalidData: Int32 = 65  // EX_DATAERR
  static let inputUnreadable: Int32 = 66  // EX_NOINPUT
  static let software: Int32 = 70  // EX_SOFTWARE
  static let cannotCreate: Int32 = 73  // EX_CANTCREAT
  static let storeUnusable: Int32 = 74  // EX_IOERR
  static let storeBusy: Int32 = 75  // EX_TEMPFAIL

  static func code(for error: BowTieError) -> Int32 {
    switch error {
    case .noSuchTie, .ambiguousTie: noSuchTie
    case .usage: usage
    case .invalidTie, .invalidSeedEntry, .invalidSeedFile, .invalidValue: invalidData
    case .inputUnreadable, .seedImageUnreadable: inputUnreadable
    case .transformerNotRegistered: software
    case .outputUnwritable: cannotCreate
    case .storeUnreadable, .storeNotWritable, .storeFromNewerVersion, .photoUnavailable:
      storeUnusable
    case .storeBusy: storeBusy
    }
  }

  /// Runs a check from a command's `validate()`. ArgumentParser wraps errors thrown
  /// there, losing their exit code, so a ``BowTieError`` is reported here and turned
  /// into an `ExitCode`, which ArgumentParser passes through untouched.
  static func validating<T>(_ check: () throws(BowTieError) -> T) throws -> T {
    do {
      return try check()
    } catch {
      Terminal.error(error.localizedDescription)
      throw ExitCode(code(for: error))
    }
  }

  /// Prints one clear line on stderr and exits. Argument-parsing errors, help and
  /// version requests go to ArgumentParser, which prints usage and exits 64 (or 0).
  static func exit(with error: any Error) -> Never {
    guard let error = error as? BowTieError else { Bowties.exit(withError: error) }
    Terminal.error(error.localizedDescription)
    Foundation.exit(code(for: error))
  }
}
