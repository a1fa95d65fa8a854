import Foundation

/// The common base of our keyed encoder and decoder: an `NSCoder` on which no method traps.
///
/// On swift-corelibs-foundation most `NSCoder` methods end in `NSRequiresConcreteImplementation()`
/// (a fatal error), `decodeObject(of:forKey:)` does the same once `requiresSecureCoding` is
/// true, and `failWithError(_:)` aborts under the default `.raiseException` policy. A class's
/// `init?(coder:)` or `encode(with:)` may call any of them, so every one is overridden here
/// to record a failure and return a neutral value. Subclasses override what they support.
class KeyedArchiveCoder: NSCoder {
  /// The first thing that went wrong, in words; later failures are usually consequences.
  private(set) var failure: String?

  func recordFailure(_ reason: String) {
    if failure == nil { failure = reason }
  }

  private func unsupported(_ method: String) {
    recordFailure("\(method) is not supported by this keyed archive coder")
  }

  // MARK: Capabilities

  override var allowsKeyedCoding: Bool { true }
  override var requiresSecureCoding: Bool { true }
  override var decodingFailurePolicy: NSCoder.DecodingFailurePolicy { .setErrorAndReturn }

  override var error: (any Error)? {
    failure.map { CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: $0]) }
  }

  /// Called by coded classes to report why they refused their data; the debug description
  /// becomes the reason in `ArchiveError.decodingFailed`.
  override func failWithError(_ error: any Error) {
    if let archiveError = error as? ArchiveError {
      recordFailure(archiveError.description)
    } else if let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String {
      recordFailure(reason)
    } else {
      recordFailure(String(describing: error))
    }
  }

  override func version(forClassName className: String) -> Int { 0 }

  // MARK: Unkeyed coding (never used by keyed archives)

  override func encodeValue(ofObjCType type: UnsafePointer<Int8>, at addr: UnsafeRawPointer) {
    unsupported("unkeyed encoding")
  }

  override func decodeValue(
    ofObjCType type: UnsafePointer<Int8>, at data: UnsafeMutableRawPointer
  ) {
    unsupported("unkeyed decoding")
  }

  override func encode(_ data: Data) { unsupported("unkeyed encoding") }

  override func decodeData() -> Data? {
    unsupported("unkeyed decoding")
    return nil
  }

  override func encode(_ object: Any?) { unsupported("unkeyed encoding") }

  override func decodeObject() -> Any? {
    unsupported("unkeyed decoding")
    return nil
  }

  override func encodePropertyList(_ aPropertyList: Any) { unsupported("unkeyed encoding") }

  override func decodePropertyList() -> Any? {
    unsupported("unkeyed decoding")
    return nil
  }

  // MARK: Keyed encoding

  override func encode(_ objv: Any?, forKey key: String) { unsupported("encoding") }
  override func encodeConditionalObject(_ objv: Any?, forKey key: String) {
    unsupported("encoding")
  }
  override func encode(_ boolv: Bool, forKey key: String) { unsupported("encoding") }
  override func encode(_ intv: Int, forKey key: String) { unsupported("encoding") }
  override func encode(_ intv: Int32, forKey key: String) { unsupported("encoding") }
  override func encode(_ intv: Int64, forKey key: String) { unsupported("encoding") }
  override func encode(_ realv: Float, forKey key: String) { unsupported("encoding") }
  override func encode(_ realv: Double, forKey key: String) { unsupported("encoding") }
  override func encodeBytes(
    _ bytesp: UnsafePointer<UInt8>?, length lenv: Int, forKey key: String
  ) {
    unsupported("encoding")
  }

  // MARK: Keyed decoding

  override func containsValue(forKey key: String) -> Bool {
    unsupported("decoding")
    return false
  }

  override func decodeObject(forKey key: String) -> Any? {
    unsupported("decoding")
    return nil
  }

  override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? {
    unsupported("decoding")
    return nil
  }

  override func decodePropertyList(forKey key: String) -> Any? {
    unsupported("property list decoding")
    return nil
  }

  override func decodeBool(forKey key: String) -> Bool {
    unsupported("decoding")
    return false
  }

  override func decodeInteger(forKey key: String) -> Int {
    unsupported("decoding")
    return 0
  }

  override func decodeCInt(forKey key: String) -> Int32 { decodeInt32(forKey: key) }

  override func decodeInt32(forKey key: String) -> Int32 {
    unsupported("decoding")
    return 0
  }

  override func decodeInt64(forKey key: String) -> Int64 {
    unsupported("decoding")
    return 0
  }

  override func decodeFloat(forKey key: String) -> Float {
    unsupported("decoding")
    return 0
  }

  override func decodeDouble(forKey key: String) -> Double {
    unsupported("decoding")
    return 0
  }

  // MARK: swift-corelibs-foundation only

  #if !canImport(Darwin)
    // These exist only in swift-corelibs-foundation (Darwin has `allowedClasses` as a set
    // and no `withDecoded…` methods), hence the one platform conditional in the codec.

    override var allowedClasses: [AnyClass]? { [] }

    override func withDecodedUnsafeBytes<ResultType>(
      forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType
    ) rethrows -> ResultType {
      unsupported("decoding")
      return try body(nil)
    }

    override func withDecodedUnsafeBufferPointer<ResultType>(
      forKey key: String, body: (UnsafeBufferPointer<UInt8>?) throws -> ResultType
    ) rethrows -> ResultType {
      try withDecodedUnsafeBytes(forKey: key) { raw in
        try body(raw?.assumingMemoryBound(to: UInt8.self))
      }
    }
  #endif
}
