import Foundation
import StockroomDomain
import Testing

@Suite("Catalogue", .timeLimit(.minutes(30)))
struct CatalogTests {
  @Test("the shipped catalogue has the juice bar's fruits and exact recipes")
  func juiceBar() throws {
    let catalog = try ShippedCatalog.load()
    #expect(catalog.fruits.map(\.id) == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
    #expect(catalog.initialStock == 10)
    let recipes = Dictionary(
      uniqueKeysWithValues: catalog.juices.map { ($0.id, $0.recipe.map { "\($0.quantity) \($0.item)" }) })
    #expect(
      recipes == [
        "strawberry_juice": ["16 strawberry"], "banana_juice": ["2 banana"], "kiwi_juice": ["3 kiwi"],
        "pineapple_juice": ["2 pineapple"], "strawberry_banana_juice": ["10 strawberry", "1 banana"],
        "mango_juice": ["3 mango"], "mango_kiwi_juice": ["2 mango", "1 kiwi"],
      ])
  }

  @Test("the shipped catalogue has three dish sections of at least four, and seven or more exhibits")
  func dishesAndExhibits() throws {
    let catalog = try ShippedCatalog.load()
    #expect(catalog.sections.map(\.id) == ["main", "soup", "side"])
    for section in catalog.sections {
      #expect(catalog.dishes.filter { $0.section == section.id }.count >= 4)
    }
    #expect(catalog.exhibits.count >= 7)
    #expect(catalog.expo.visitors == 48_130_300)
    #expect(catalog.expo.opened == "1900-04-14")
    #expect(catalog.expo.closed == "1900-11-12")
  }

  @Test("Korean aliases name the fruits and juices you would expect")
  func koreanAliases() throws {
    let state = ShopState(catalog: try ShippedCatalog.load())
    let expected = [
      "딸기": "strawberry", "바나나": "banana", "파인애플": "pineapple", "키위": "kiwi", "망고": "mango",
      "딸기쥬스": "strawberry_juice", "바나나쥬스": "banana_juice", "키위쥬스": "kiwi_juice",
      "파인애플쥬스": "pineapple_juice", "딸바쥬스": "strawberry_banana_juice", "망고쥬스": "mango_juice",
      "망키쥬스": "mango_kiwi_juice",
    ]
    for (alias, id) in expected {
      #expect(try state.resolve(alias).id == id, "\(alias)")
    }
    #expect(try state.resolve("BANANA_Juice").id == "banana_juice", "ids match case-insensitively")
  }

  private func refusal(_ edit: (inout [String: Any]) -> Void) throws -> CatalogError? {
    let data = try ShippedCatalog.edited(edit)
    do {
      _ = try Catalog.decode(from: data)
      return nil
    } catch {
      return error
    }
  }

  @Test("a recipe naming an unknown fruit is refused with its key path")
  func unknownFruit() throws {
    let error = try refusal { json in
      var juices = json["juices"] as! [[String: Any]]
      juices[2]["recipe"] = [["item": "durian", "quantity": 1]]
      json["juices"] = juices
    }
    #expect(error?.location == "juices[2].recipe[0].item")
    #expect(error?.message.contains("durian") == true)
  }

  @Test("a duplicate alias is refused and names both places")
  func duplicateAlias() throws {
    let error = try refusal { json in
      var fruits = json["fruits"] as! [[String: Any]]
      fruits[1]["aliases"] = ["딸기"]
      json["fruits"] = fruits
    }
    #expect(error?.location == "fruits[1].aliases[0]")
    #expect(error?.message.contains("fruits[0].aliases[0]") == true)
  }

  @Test("a missing key and a wrong type are refused with their paths")
  func missingKeyAndType() throws {
    let missing = try refusal { json in
      var dishes = json["dishes"] as! [[String: Any]]
      dishes[3]["price"] = nil
      json["dishes"] = dishes
    }
    #expect(missing?.location == "dishes[3].price")
    let wrongType = try refusal { json in json["initial_stock"] = "ten" }
    #expect(wrongType?.location == "initial_stock")
  }

  @Test("broken JSON is refused with the position of the problem")
  func brokenJSON() {
    #expect(throws: CatalogError.self) { try Catalog.decode(from: Data("{\"format\": 1,,}".utf8)) }
    do {
      _ = try Catalog.decode(from: Data("{\n  \"format\": 1,\n  oops\n}".utf8))
      Issue.record("broken JSON accepted")
    } catch {
      #expect(error.message.contains("JSON"))
      #expect(error.location == "line 3, column 3", "\(error)")
    }
  }

  @Test("ids that are not lowercase ASCII, or look like product ids, are refused")
  func badIDs() throws {
    for bad in ["Banana", "p12", "9lives", "with space", ""] {
      let error = try refusal { json in
        var fruits = json["fruits"] as! [[String: Any]]
        fruits[1]["id"] = bad
        json["fruits"] = fruits
      }
      #expect(error?.location == "fruits[1].id", "\(bad)")
    }
  }
}

@Suite("Name keys", .timeLimit(.minutes(30)))
struct ItemNameKeyTests {
  @Test("a name of any length is lowered when it holds an upper-case or non-ASCII letter anywhere")
  func keysOfEveryLength() {
    for length in 1...20 {
      let plain = String(repeating: "a", count: length)
      #expect(ItemNames.key(plain) == plain)
      for position in 0..<length {
        for letter in ["A", "Z", "É", "_", "@", "[", "`", "{", "9"] {
          var characters = Array(plain)
          characters[position] = Character(letter)
          let name = String(characters)
          #expect(ItemNames.key(name) == name.lowercased(), "\(name)")
        }
      }
    }
  }
}
