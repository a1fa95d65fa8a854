import CLibXML2
import Foundation

/// Reads an XML property list with libxml2's streaming reader, handing over the root
/// array's elements one at a time.
///
/// Foundation's `PropertyListSerialization` builds the whole document as Foundation
/// objects first: about 31 µs and several kilobytes a tie, which made seeding 100,000 ties
/// slower than a Python script and took over 500 MB. Here only one entry exists at a time,
/// as plain Swift values (`String`, `Int64`, `Double`, `Bool`, `Date`, `Data`, arrays and
/// `[String: Any]`), which ``PlistValue`` sorts as it sorts Foundation's.
///
/// Hostile input is refused, never followed: no network, no external DTD, entity
/// references other than XML's own left unexpanded and refused, nesting capped.
struct XMLPlistReader {
  /// What a failure says, for "not a property list (…)".
  struct Failure: Error {
    var reason: String
  }

  /// The root value, when it is not an array: what the caller names in its refusal.
  enum Root {
    case array(count: Int)
    case other(Any)
  }

  static let maximumDepth = 32

  /// Whether `data` looks like an XML document (after white space and a byte-order mark).
  static func looksLikeXML(_ data: Data) -> Bool {
    let first = data.prefix(64).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    return first == UInt8(ascii: "<")
  }

  /// Calls `element` with each item of the root array, in order.
  static func read(
    _ data: Data, element: (_ index: Int, _ value: Any) throws(BowTieError) -> Void
  ) throws(BowTieError) -> Root {
    var reader = try Cursor(data)
    defer { reader.close() }
    do {
      guard var (name, empty) = try reader.nextStart() else {
        throw Failure(reason: "no root element")
      }
      if name == "plist" {
        guard !empty, let root = try reader.nextStart() else {
          throw Failure(reason: "the plist is empty")
        }
        (name, empty) = root
      }
      guard name == "array" else { return .other(try reader.value(name, empty: empty, depth: 1)) }
      var count = 0
      if !empty {
        while let item = try reader.nextStartOrEnd("array") {
          try element(count, try reader.value(item.name, empty: item.empty, depth: 2))
          count += 1
        }
      }
      return .array(count: count)
    } catch let failure as Failure {
      throw .invalidSeedFile(source: "", reason: "not a property list (\(failure.reason))")
    } catch let error as BowTieError {
      throw error
    } catch {
      throw .invalidSeedFile(source: "", reason: "not a property list (\(error))")
    }
  }

  /// The event stream, without the white space, comments and declarations between elements.
  private struct Cursor {
    private let reader: xmlTextReaderPtr
    private let buffer: UnsafeMutableRawBufferPointer

    init(_ data: Data) throws(BowTieError) {
      // libxml2 reads from the buffer for as long as the reader lives: a copy it owns.
      buffer = .allocate(byteCount: max(data.count, 1), alignment: 1)
      data.copyBytes(to: buffer)
      let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
      guard
        let reader = xmlReaderForMemory(
          buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(data.count), nil, nil,
          options)
      else {
        buffer.deallocate()
        throw .invalidSeedFile(
          source: "", reason: "not a property list (cannot start the XML reader)")
      }
      self.reader = reader
    }

    func close() {
      xmlFreeTextReader(reader)
      buffer.deallocate()
    }

    private enum Event {
      case start(String, empty: Bool)
      case end(String)
      case text(String)
    }

    private func next() throws -> Event? {
      while true {
        let status = xmlTextReaderRead(reader)
        if status == 0 { return nil }
        guard status == 1 else { throw Failure(reason: lastError()) }
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
          return .start(name(), empty: xmlTextReaderIsEmptyElement(reader) == 1)
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
          return .end(name())
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
          return .text(xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? "")
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
          throw Failure(reason: "line \(line()): entity references are not allowed")
        default:
          continue  // white space, comments, processing instructions, the DOCTYPE
        }
      }
    }

    private func name() -> String {
      xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    private func line() -> Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    private func lastError() -> String {
      guard let error = xmlGetLastError(), let message = error.pointee.message else {
        return "line \(line()): malformed XML"
      }
      let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
      return "line \(error.pointee.line): \(text)"
    }

    /// The next element's start, skipping nothing but what `next()` skips.
    func nextStart() throws -> (name: String, empty: Bool)? {
      switch try next() {
      case .start(let name, let empty): return (name, empty)
      case nil: return nil
      case .end(let name): throw Failure(reason: "line \(line()): unexpected </\(name)>")
      case .text: throw Failure(reason: "line \(line()): unexpected text")
      }
    }

    /// The next element's start inside `parent`, or nil at `parent`'s end.
    func nextStartOrEnd(_ parent: String) throws -> (name: String, empty: Bool)? {
      switch try next() {
      case .start(let name, let empty): return (name, empty)
      case .end(parent): return nil
      case .end(let name): throw Failure(reason: "line \(line()): unexpected </\(name)>")
      case .text: throw Failure(reason: "line \(line()): unexpected text in <\(parent)>")
      case nil: throw Failure(reason: "the document ends inside <\(parent)>")
      }
    }

    /// The text content of a leaf element, up to its end.
    private func text(_ element: String, empty: Bool) throws -> String {
      if empty { return "" }
      var text = ""
      while true {
        switch try next() {
        case .text(let chunk): text += chunk
        case .end(element): return text
        default: throw Failure(reason: "line \(line()): <\(element)> may hold only text")
        }
      }
    }

    /// One value whose start tag was just read.
    func value(_ element: String, empty: Bool, depth: Int) throws -> Any {
      guard depth <= XMLPlistReader.maximumDepth else {
        throw Failure(
          reason: "line \(line()): nested more than \(XMLPlistReader.maximumDepth) deep")
      }
      switch element {
      case "dict":
        var dict: [String: Any] = [:]
        guard !empty else { return dict }
        while let key = try nextStartOrEnd("dict") {
          guard key.name == "key" else {
            throw Failure(reason: "line \(line()): <\(key.name)> where a <key> should be")
          }
          let name = try text("key", empty: key.empty)
          guard let item = try nextStart() else {
            throw Failure(reason: "the document ends in a <dict>")
          }
          dict[name] = try value(item.name, empty: item.empty, depth: depth + 1)
        }
        return dict
      case "array":
        var array: [Any] = []
        guard !empty else { return array }
        while let item = try nextStartOrEnd("array") {
          array.append(try value(item.name, empty: item.empty, depth: depth + 1))
        }
        return array
      case "string":
        return try text("string", empty: empty)
      case "integer":
        let digits = try text("integer", empty: empty).trimmingCharacters(in: .whitespaces)
        guard let number = Int64(digits) else {
          throw Failure(reason: "line \(line()): '\(digits.prefix(40))' is not a 64-bit integer")
        }
        return number
      case "real":
        let digits = try text("real", empty: empty).trimmingCharacters(in: .whitespaces)
        guard let number = Double(digits) else {
          throw Failure(reason: "line \(line()): '\(digits.prefix(40))' is not a real number")
        }
        return number
      case "true", "false":
        _ = try text(element, empty: empty)
        return element == "true"
      case "date":
        let stamp = try text("date", empty: empty).trimmingCharacters(in: .whitespaces)
        guard let date = ISO8601.parse(stamp) else {
          throw Failure(reason: "line \(line()): '\(stamp.prefix(40))' is not a plist date")
        }
        return date
      case "data":
        let base64 = try text("data", empty: empty)
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
          throw Failure(reason: "line \(line()): <data> is not base64")
        }
        return data
      default:
        throw Failure(reason: "line \(line()): <\(element)> is not a property-list element")
      }
    }
  }
}
