import Foundation

// Declared unconditionally: swift-corelibs-foundation has no ValueTransformer, and on Apple
// platforms these declarations shadow Foundation's inside this module, so every platform
// runs the same code.

/// The name under which a ``ValueTransformer`` is registered.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
  /// The name as registered.
  public let rawValue: String

  /// Wraps a registration name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Wraps a registration name.
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Converts values from one representation to another; a port of Foundation's
/// `ValueTransformer` with its process-wide registry of named transformers.
///
/// Registered instances are shared by every thread, hence `@unchecked Sendable`: subclasses
/// must be immutable (or otherwise thread-safe), and restate the conformance.
open class ValueTransformer: NSObject, @unchecked Sendable {
  /// Registers `transformer` under `name`, replacing any previous one; `nil` unregisters.
  open class func setValueTransformer(
    _ transformer: ValueTransformer?, forName name: NSValueTransformerName
  ) {
    TransformerRegistry.shared.set(transformer, forName: name)
  }

  /// The transformer registered under `name`, if any. (Apple's `init?(forName:)` factory
  /// initializer cannot be expressed in Swift.)
  open class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
    TransformerRegistry.shared.transformer(forName: name)
  }

  /// The names of all registered transformers, sorted.
  open class func valueTransformerNames() -> [NSValueTransformerName] {
    TransformerRegistry.shared.names()
  }

  /// The class of the values `transformedValue(_:)` returns.
  open class func transformedValueClass() -> AnyClass { NSObject.self }

  /// Whether `reverseTransformedValue(_:)` is supported.
  open class func allowsReverseTransformation() -> Bool { false }

  /// Transforms `value`; the base implementation returns it unchanged.
  open func transformedValue(_ value: Any?) -> Any? { value }

  /// Reverses `transformedValue(_:)`. Where Apple's raises an exception when reverse
  /// transformation is not allowed, this returns nil.
  open func reverseTransformedValue(_ value: Any?) -> Any? {
    guard Self.allowsReverseTransformation() else { return nil }
    return transformedValue(value)
  }
}

/// The lock-protected registry behind ``ValueTransformer/setValueTransformer(_:forName:)``.
private final class TransformerRegistry: @unchecked Sendable {
  static let shared = TransformerRegistry()

  private let lock = NSLock()
  // Keyed by the raw name: a String key costs no start-up conformance look-up of its own.
  private var transformers: [String: ValueTransformer] = [:]

  func set(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
    lock.withLock { transformers[name.rawValue] = transformer }
  }

  func transformer(forName name: NSValueTransformerName) -> ValueTransformer? {
    lock.withLock { transformers[name.rawValue] }
  }

  func names() -> [NSValueTransformerName] {
    lock.withLock { transformers.keys.sorted().map(NSValueTransformerName.init(rawValue:)) }
  }
}
