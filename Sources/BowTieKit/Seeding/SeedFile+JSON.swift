import BowTieModel
import Foundation
import PropertyLists

// Decoding a JSON seed file into the same values a property list gives.

/// A JSON seed file's root: the items of its array, or the value found instead.
enum JSONRoot: Decodable {
  case array([PropertyListValue])
  case other(PropertyListValue)

  init(from decoder: any Decoder) throws {
    guard var container = try? decoder.unkeyedContainer() else {
      self = .other(try JSONValue(from: decoder).value)
      return
    }
    var items: [PropertyListValue] = []
    items.reserveCapacity(container.count ?? 0)
    while !container.isAtEnd {
      // Entries are dictionaries: tried as one first, since every miss throws an error.
      if let entry = try? container.decode(JSONDictionary.self) {
        items.append(.dictionary(entry.fields))
      } else {
        items.append(try container.decode(JSONValue.self).value)
      }
    }
    self = .array(items)
  }
}

/// A JSON object, each value tried first as the type its key holds in a seed entry.
///
/// Decodable can only ask "is it a String?", "is it a Bool?"… and each "no" is a thrown
/// error: asked in the usual order, a tie's values cost a dozen of them, which made
/// JSONDecoder slower than JSONSerialization.
private struct JSONDictionary: Decodable {
  var fields: [String: PropertyListValue]

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let keys = container.allKeys
    fields = .init(minimumCapacity: keys.count)
    for key in keys {
      let expected: PropertyListValue?
      switch key.stringValue {
      case "rating":
        expected = (try? container.decode(Double.self, forKey: key)).map(PropertyListValue.real)
      case "timesWorn", "red", "green", "blue", "alpha":
        expected = (try? container.decode(Int64.self, forKey: key)).map(PropertyListValue.integer)
      case "isFavorite":
        expected = (try? container.decode(Bool.self, forKey: key)).map(PropertyListValue.bool)
      case "tintColor":
        expected = (try? container.decode(JSONDictionary.self, forKey: key)).map {
          PropertyListValue.dictionary($0.fields)
        }
      default:
        expected = (try? container.decode(String.self, forKey: key)).map(PropertyListValue.string)
      }
      fields[key.stringValue] =
        try expected ?? container.decode(JSONValue.self, forKey: key).value
    }
  }
}

/// Any JSON value, as the property-list value a seed entry is read from.
private struct JSONValue: Decodable {
  var value: PropertyListValue

  /// Integers stay integers (`Int64` is tried before `Double`); `null` is
  /// ``PropertyListValue/null``, which the entry reader refuses by name.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = .null
    } else if let text = try? container.decode(String.self) {
      value = .string(text)
    } else if let flag = try? container.decode(Bool.self) {
      value = .bool(flag)
    } else if let number = try? container.decode(Int64.self) {
      value = .integer(number)
    } else if let number = try? container.decode(Double.self) {
      value = .real(number)
    } else if let items = try? container.decode([JSONValue].self) {
      value = .array(items.map(\.value))
    } else {
      value = .dictionary(try container.decode(JSONDictionary.self).fields)
    }
  }
}
