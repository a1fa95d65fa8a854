import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension POSIXError {
  /// The error a saved `errno` value names; an unknown one reads as an I/O error.
  init(errno code: Int32) { self.init(POSIXErrorCode(rawValue: code) ?? .EIO) }

  /// The error `errno` holds now.
  static var current: POSIXError { POSIXError(errno: errno) }
}

extension Error {
  /// A short lowercase reason for messages: "permission denied", "no space left on device".
  var reason: String {
    if let posix = self as? POSIXError {
      return String(cString: strerror(posix.code.rawValue)).lowercased()
    }
    // Foundation's file calls wrap the system's error in a Cocoa one whose own text is
    // "(null)"; the wrapped errno is the reason.
    let cocoa = self as NSError
    // On Linux the wrapped error is held as a Swift error, which `as? NSError` does not
    // bridge.
    let underlying = (cocoa.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    if let code = [cocoa, underlying]
      .compactMap({ $0 }).first(where: { $0.domain == NSPOSIXErrorDomain })?.code
    {
      return String(cString: strerror(Int32(code))).lowercased()
    }
    return (self as? LocalizedError)?.errorDescription ?? "\(self)"
  }
}
