import CExpat
import Foundation

/// Reads an XML property list with Expat, handing over the root array's elements one at
/// a time.
///
/// Foundation's `PropertyListSerialization` builds the whole document as Foundation
/// objects first, so a large seed file costs time and memory in proportion to all its
/// ties at once. Here only one entry exists at a time, built directly as a typed
/// ``PropertyListValue`` from parser events.
/// Element names are matched as Expat's bytes; only keys and strings become strings.
///
/// Hostile input is refused, never followed: no external DTD or entity is read, entity
/// declarations are ignored and references other than XML's own refused, nesting capped.
public struct XMLPropertyListReader {
  /// Why the document is not a property list: "line 3: <dict> where a <key> should be".
  public struct Failure: Error, Equatable, Sendable {
    public var reason: String
  }

  /// The root value, when it is not an array: what the caller names in its refusal.
  public enum Root {
    case array(count: Int)
    case other(PropertyListValue)
  }

  public static let maximumDepth = 32

  /// Whether `data` looks like an XML document (after white space and a byte-order mark).
  public static func looksLikeXML(_ data: Data) -> Bool {
    // UTF-16, by its byte-order mark or a "<" as its first character: Expat reads the
    // encoding from these first bytes itself.
    let utf16Starts: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x3C], [0x3C, 0x00]]
    if utf16Starts.contains(where: data.starts(with:)) { return true }
    let first = data.prefix(64).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    return first == UInt8(ascii: "<")
  }

  /// Calls `element` with each item of the root array, in order.
  ///
  /// - Throws: a ``Failure`` when the document is not a property list, or what `element`
  ///   threw, which stops the reading.
  public static func read(
    _ data: Data, element: (_ index: Int, _ value: PropertyListValue) throws -> Void
  ) throws -> Root {
    try withoutActuallyEscaping(element) { element in
      var builder = Builder(element: element)
      try builder.parse(data)
      return builder.root ?? .array(count: 0)
    }
  }

  /// The element names a property list uses, matched without making a string of each.
  enum Element: Equatable {
    case plist, array, dict, key, string, integer, real, `true`, `false`, date, data
    case other(String)

    private static let known: [(StaticString, Element)] = [
      ("key", .key), ("string", .string), ("integer", .integer), ("real", .real),
      ("true", .true), ("false", .false), ("date", .date), ("dict", .dict), ("data", .data),
      ("array", .array), ("plist", .plist),
    ]

    init(_ name: UnsafePointer<XML_Char>?) {
      guard let text = name else {
        self = .other("")
        return
      }
      for (known, element) in Self.known {
        let count = known.utf8CodeUnitCount
        let knownText = UnsafeRawPointer(known.utf8Start).assumingMemoryBound(to: CChar.self)
        if strncmp(text, knownText, count) == 0, text[count] == 0 {
          self = element
          return
        }
      }
      self = .other(String(cString: text))
    }

    var name: String {
      switch self {
      case .other(let name): name
      case .true: "true"
      case .false: "false"
      default: "\(self)"
      }
    }

    var isLeaf: Bool {
      switch self {
      case .key, .string, .integer, .real, .true, .false, .date, .data: true
      case .plist, .array, .dict, .other: false
      }
    }
  }

  /// Turns parser events into values. Expat calls it back through C function pointers,
  /// which cannot throw: the first failure is kept and the parser stopped. A struct
  /// reached through a pointer, not a class: a class's properties pay a dynamic
  /// exclusivity check on every access, and there are dozens of accesses a tie.
  private struct Builder {
    private enum Frame {
      /// The document's array: its items go to `element` as they complete, never kept.
      case root(count: Int)
      case array([PropertyListValue])
      case dictionary([String: PropertyListValue], key: String?)
    }

    let element: (Int, PropertyListValue) throws -> Void
    private(set) var root: Root?
    private var parser: XML_Parser?
    private var frames: [Frame] = []
    private var sawPlist = false
    /// The leaf element being read, and its text so far.
    private var leaf: Element?
    private var text: [UInt8] = []
    private var failure: Failure?
    private var elementError: (any Error)?

    init(element: @escaping (Int, PropertyListValue) throws -> Void) {
      self.element = element
      text.reserveCapacity(256)
    }

    mutating func parse(_ data: Data) throws {
      guard let parser = XML_ParserCreate(nil) else {
        throw Failure(reason: "cannot start the XML parser")
      }
      defer { XML_ParserFree(parser) }
      XML_SetElementHandler(
        parser, { user, name, _ in Builder.from(user).pointee.start(Element(name)) },
        { user, _ in Builder.from(user).pointee.end() })
      XML_SetCharacterDataHandler(parser) { user, bytes, count in
        Builder.from(user).pointee.characters(bytes, count)
      }
      // With a default handler, Expat expands no entity it was declared: a reference to
      // one arrives here as its text, and is refused. XML's own (`&amp;`, `&#38;`) arrive
      // as characters. Everything else that comes here (comments, the DOCTYPE) is ignored.
      XML_SetDefaultHandler(parser) { user, bytes, count in
        guard let bytes, count > 1, bytes[0] == CChar(UInt8(ascii: "&")) else { return }
        let reference = String(
          decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
        Builder.from(user).pointee.fail("entity references are not allowed (\(reference))")
      }
      withUnsafeMutablePointer(to: &self) { builder in
        builder.pointee.parser = parser
        defer { builder.pointee.parser = nil }
        XML_SetUserData(parser, builder)
        data.withUnsafeBytes { bytes in
          // In slices, so that a stop is noticed soon and a size never overflows an Int32.
          let slice = 1 << 20
          var offset = 0
          repeat {
            let count = min(slice, bytes.count - offset)
            let start = bytes.baseAddress?.advanced(by: offset).assumingMemoryBound(to: CChar.self)
            offset += count
            let status = XML_Parse(parser, start, Int32(count), offset == bytes.count ? 1 : 0)
            if status == XML_STATUS_ERROR { builder.pointee.failFromParser() }
          } while offset < bytes.count && !builder.pointee.stopped
        }
      }
      if let elementError { throw elementError }
      if failure == nil, root == nil {
        fail(sawPlist ? "the plist is empty" : "no root element")
      }
      if let failure { throw failure }
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Builder> {
      user!.assumingMemoryBound(to: Builder.self)
    }

    /// Set with `failure` or `elementError`: a flag is cheaper to test on every event than
    /// an optional error enum.
    private var stopped = false

    private var line: Int { parser.map { Int(XML_GetCurrentLineNumber($0)) } ?? 0 }

    mutating func fail(_ reason: String, line: Int? = nil) {
      guard !stopped else { return }
      failure = Failure(reason: "line \(line ?? self.line): \(reason)")
      stopped = true
      if let parser { XML_StopParser(parser, XML_FALSE) }
    }

    /// The error Expat stopped with, unless the stop was ours.
    mutating func failFromParser() {
      guard !stopped, let parser else { return }
      let message = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) }
      fail(message ?? "malformed XML")
    }

    private var parentName: String {
      switch frames.last {
      case .dictionary: "<dict>"
      case .array, .root: "<array>"
      case nil: "the plist"
      }
    }

    mutating func start(_ element: Element) {
      guard !stopped else { return }
      if let leaf { return fail("<\(leaf.name)> may hold only text") }
      if element == .plist && !sawPlist && frames.isEmpty && root == nil {
        sawPlist = true
        return
      }
      if root != nil { return fail("<\(element.name)> after the root value") }
      if !frames.isEmpty, case .dictionary(_, let key) = frames[frames.count - 1] {
        if key == nil && element != .key {
          return fail("<\(element.name)> where a <key> should be")
        }
        if key != nil && element == .key { return fail("a <key> where its value should be") }
      } else if element == .key {
        return fail("<key> outside a <dict>")
      }
      guard frames.count < XMLPropertyListReader.maximumDepth else {
        return fail("nested more than \(XMLPropertyListReader.maximumDepth) deep")
      }
      switch element {
      case .array: frames.append(frames.isEmpty ? .root(count: 0) : .array([]))
      // A tie's dictionary has about ten keys: room for them up front, not four resizes.
      case .dict: frames.append(.dictionary(.init(minimumCapacity: 12), key: nil))
      case _ where element.isLeaf:
        leaf = element
        text.removeAll(keepingCapacity: true)
      default: fail("<\(element.name)> is not a property-list element")
      }
    }

    mutating func characters(_ bytes: UnsafePointer<XML_Char>?, _ count: Int32) {
      guard !stopped, let bytes else { return }
      let chunk = UnsafeRawBufferPointer(start: bytes, count: Int(count))
      if leaf != nil {
        text.append(contentsOf: chunk)
      } else if !chunk.allSatisfy(Self.isSpace) {
        fail("unexpected text in \(parentName)")
      }
    }

    mutating func end() {
      guard !stopped else { return }
      if let leaf {
        self.leaf = nil
        do {
          if leaf == .key {
            guard case .dictionary(let dictionary, nil) = frames.popLast() else {
              return fail("<key> outside a <dict>")
            }
            frames.append(.dictionary(dictionary, key: String(decoding: text, as: UTF8.self)))
          } else {
            complete(try value(of: leaf))
          }
        } catch let failure as Failure {
          fail(failure.reason)
        } catch {
          fail("\(error)")
        }
        return
      }
      switch frames.popLast() {
      case .root(let count)?:
        root = .array(count: count)
      case .array(let items)?:
        complete(.array(items))
      case .dictionary(let dictionary, let key)?:
        if let key { return fail("the <key> \(key) has no value") }
        complete(.dictionary(dictionary))
      case nil:
        return  // </plist>
      }
    }

    /// Puts a finished value where it belongs: in its container, or out to `element`.
    private mutating func complete(_ value: PropertyListValue) {
      switch frames.popLast() {
      case nil:
        root = .other(value)
      case .root(let count)?:
        frames.append(.root(count: count + 1))
        do {
          try element(count, value)
        } catch {
          elementError = error
          stopped = true
          if let parser { XML_StopParser(parser, XML_FALSE) }
        }
      case .array(var items)?:
        items.append(value)
        frames.append(.array(items))
      case .dictionary(var dictionary, let key?)?:
        dictionary[key] = value
        frames.append(.dictionary(dictionary, key: nil))
      case .dictionary(_, nil)?:
        fail("a value without a <key>")
      }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A leaf's text without the spaces, tabs and line breaks around it.
    private var trimmedText: Substring {
      let string = String(decoding: text, as: UTF8.self)
      guard let first = string.utf8.firstIndex(where: { !Self.isSpace($0) }),
        let last = string.utf8.lastIndex(where: { !Self.isSpace($0) })
      else { return "" }
      return string[first...last]
    }

    private func value(of leaf: Element) throws -> PropertyListValue {
      switch leaf {
      case .string:
        return .string(String(decoding: text, as: UTF8.self))
      case .integer:
        let digits = trimmedText
        guard let number = Int64(digits) else {
          throw Failure(reason: "'\(digits.prefix(40))' is not a 64-bit integer")
        }
        return .integer(number)
      case .real:
        let digits = trimmedText
        guard let number = Double(digits) else {
          throw Failure(reason: "'\(digits.prefix(40))' is not a real number")
        }
        return .real(number)
      case .true, .false:
        return .bool(leaf == .true)
      case .date:
        let stamp = trimmedText
        guard let date = ISO8601.parse(String(stamp)) else {
          throw Failure(reason: "'\(stamp.prefix(40))' is not a plist date")
        }
        return .date(date)
      case .data:
        // Foundation's decoder refuses text that is only white space, though it skips the
        // same white space around digits: what every writer puts in an empty <data>.
        if text.allSatisfy(Self.isSpace) { return .data(Data()) }
        guard
          let data = Data(
            base64Encoded: String(decoding: text, as: UTF8.self), options: .ignoreUnknownCharacters)
        else {
          throw Failure(reason: "<data> is not base64")
        }
        return .data(data)
      case .key, .plist, .array, .dict, .other:
        throw Failure(reason: "<\(leaf.name)> is not a value")
      }
    }
  }
}
