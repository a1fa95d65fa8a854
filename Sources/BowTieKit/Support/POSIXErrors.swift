import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension POSIXError {
  /// The error `errno` holds now.
  static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

extension Error {
  /// A short lowercase reason for messages: "permission denied", "no space left on device".
  var reason: String {
    if let posix = self as? POSIXError {
      return String(cString: strerror(posix.code.rawValue)).lowercased()
    }
    return (self as? LocalizedError)?.errorDescription ?? "\(self)"
  }
}
