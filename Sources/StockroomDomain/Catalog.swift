import Foundation
import StockroomText

/// Everything the shop sells or shows, as loaded from a catalogue file.
public struct Catalog: Sendable {
  public var format: Int
  public var initialStock: Int
  public var fruits: [Fruit]
  public var juices: [Juice]
  public var sections: [Section]
  public var dishes: [Dish]
  public var expo: Expo
  public var exhibits: [Exhibit]

  /// Largest stock level the shop keeps for one item.
  public static let maximumStock = 1_000_000_000

  /// A catalogue of nothing, for opening a shop only to change its accounts (`stockroomd user`):
  /// a shop loaded on it gains no item, and keeps every one it has.
  public static let empty = Catalog(
    format: 1, initialStock: 0, fruits: [], juices: [], sections: [], dishes: [],
    expo: Expo(title: "", visitors: 0, location: "", opened: "", closed: "", description: ""), exhibits: [])

  /// Decodes and validates a catalogue; every problem names where it is.
  public static func decode(from data: Data) throws(CatalogError) -> Catalog {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let catalog: Catalog
    do {
      catalog = try decoder.decode(Catalog.self, from: data)
    } catch let error as DecodingError {
      throw CatalogError(decodingError: error, data: data)
    } catch {
      throw CatalogError("", "\(error)")
    }
    try catalog.validate()
    return catalog
  }

  /// A copy whose fruits start at `stock` instead of the file's `initial_stock`.
  public func withInitialStock(_ stock: Int) -> Catalog {
    var copy = self
    copy.initialStock = stock
    return copy
  }

  func validate() throws(CatalogError) {
    guard format == 1 else { throw CatalogError("format", "unsupported format \(format); this server reads 1") }
    guard (0...Catalog.maximumStock).contains(initialStock) else {
      throw CatalogError("initial_stock", "must be 0 to \(Catalog.maximumStock)")
    }
    var names = CatalogNameClaims()
    for (index, fruit) in fruits.enumerated() {
      try names.claimAll(fruit.id, fruit.name, fruit.aliases, at: "fruits[\(index)]")
    }
    try validateJuices(&names)
    for (index, section) in sections.enumerated() {
      try names.claimAll(section.id, section.name, section.aliases, at: "sections[\(index)]")
    }
    try validateDishes(&names)
    for (index, exhibit) in exhibits.enumerated() {
      try names.claimAll(exhibit.id, exhibit.name, exhibit.aliases, at: "exhibits[\(index)]")
    }
    try validateExpo()
  }

  private func validateJuices(_ names: inout CatalogNameClaims) throws(CatalogError) {
    let fruitIDs = Set(fruits.map(\.id))
    for (index, juice) in juices.enumerated() {
      let path = "juices[\(index)]"
      try names.claimAll(juice.id, juice.name, juice.aliases, at: path)
      guard !juice.recipe.isEmpty else { throw CatalogError("\(path).recipe", "is empty") }
      var used: Set<String> = []
      for (line, ingredient) in juice.recipe.enumerated() {
        let linePath = "\(path).recipe[\(line)]"
        guard fruitIDs.contains(ingredient.item) else {
          throw CatalogError("\(linePath).item", "'\(ingredient.item)' is not a fruit in this catalogue")
        }
        guard used.insert(ingredient.item).inserted else {
          throw CatalogError("\(linePath).item", "'\(ingredient.item)' appears twice in one recipe")
        }
        guard (1...1000).contains(ingredient.quantity) else {
          throw CatalogError("\(linePath).quantity", "must be 1 to 1000")
        }
      }
    }
  }

  private func validateDishes(_ names: inout CatalogNameClaims) throws(CatalogError) {
    let sectionIDs = Set(sections.map(\.id))
    for (index, dish) in dishes.enumerated() {
      let path = "dishes[\(index)]"
      try names.claimAll(dish.id, dish.name, dish.aliases, at: path)
      guard sectionIDs.contains(dish.section) else {
        throw CatalogError("\(path).section", "'\(dish.section)' is not a section in this catalogue")
      }
      guard (0...Money.maximumMinorUnits).contains(dish.price.minorUnits) else {
        throw CatalogError("\(path).price", "must be 0 to \(Money.maximumMinorUnits)")
      }
      guard (0...Catalog.maximumStock).contains(dish.stock) else {
        throw CatalogError("\(path).stock", "must be 0 to \(Catalog.maximumStock)")
      }
      if let discount = dish.discount {
        do { try discount.validate(against: dish.price) } catch {
          throw CatalogError("\(path).discount", error.message)
        }
      }
    }
  }

  private func validateExpo() throws(CatalogError) {
    guard expo.visitors >= 0 else { throw CatalogError("expo.visitors", "must not be negative") }
    for (key, date) in [("expo.opened", expo.opened), ("expo.closed", expo.closed)] {
      guard date.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil else {
        throw CatalogError(key, "'\(date)' is not a date like 1900-04-14")
      }
    }
  }
}

extension Catalog: Decodable {
  private enum CodingKeys: String, CodingKey {
    case format, initialStock, fruits, juices, sections, dishes, expo, exhibits
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(Int.self, forKey: .format)
    initialStock = try container.decode(Int.self, forKey: .initialStock)
    fruits = try container.decode([Fruit].self, forKey: .fruits)
    juices = try container.decode([Juice].self, forKey: .juices)
    sections = try container.decode([Section].self, forKey: .sections)
    dishes = try container.decode([Dish].self, forKey: .dishes)
    expo = try container.decode(Expo.self, forKey: .expo)
    exhibits = try container.decode([Exhibit].self, forKey: .exhibits)
  }
}

extension CatalogError {
  init(decodingError error: DecodingError, data: Data) {
    func path(_ keys: [any CodingKey]) -> String {
      var out = ""
      for key in keys {
        if let index = key.intValue {
          out += "[\(index)]"
        } else {
          let snake = key.stringValue.replacing(/[A-Z]/) { "_" + $0.output.lowercased() }
          out += out.isEmpty ? snake : ".\(snake)"
        }
      }
      return out
    }
    switch error {
    case .keyNotFound(let key, let context):
      let keyPath = path(context.codingPath + [key])
      self.init(keyPath, "missing key '\(keyPath.split(separator: ".").last.map(String.init) ?? keyPath)'")
    case .typeMismatch(let type, let context):
      self.init(path(context.codingPath), "expected \(Self.typeName(type))")
    case .valueNotFound(let type, let context):
      self.init(path(context.codingPath), "expected \(Self.typeName(type)), found null")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        self.init(Self.syntaxLocation(in: data), "not valid JSON")
      } else {
        self.init(path(context.codingPath), context.debugDescription)
      }
    @unknown default:
      self.init("", "\(error)")
    }
  }

  /// `line L, column C` of a JSON syntax error. The decoder does not say where; the older
  /// parser says "around character N", which is turned into a line and column here.
  private static func syntaxLocation(in data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data)
      return ""
    } catch {
      let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
      guard let match = text.firstMatch(of: /character (\d+)/), let offset = Int(match.1) else { return "" }
      var line = 1
      var column = 1
      for byte in data.prefix(offset) {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return "line \(line), column \(column)"
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type: "a whole number"
    case is [Any].Type: "a list"
    default: "\(type)".hasPrefix("Array") ? "a list" : "an object (\(type))"
    }
  }
}
