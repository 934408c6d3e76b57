import Foundation
import StockroomProtocol

/// The body of a `POST /order`, a JSON object: the page's `token`, the tap's `key`, the `item`'s
/// id and the `quantity`. Anything else in it, or anything missing or malformed, is refused.
struct PhoneOrderForm: Equatable {
  var token: String
  var key: String
  var order: PhoneOrder

  init(json body: [UInt8]) throws(ProtocolError) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
      throw ProtocolError(.invalid, "the order must be a JSON object with token, key, item and quantity")
    }
    guard Set(object.keys).isSubset(of: ["token", "key", "item", "quantity"]) else {
      throw ProtocolError(.invalid, "the order may hold only token, key, item and quantity")
    }
    guard let token = object["token"] as? String, token.utf8.count == 32, token.utf8.allSatisfy(Self.isHex) else {
      throw ProtocolError(.invalid, "the order needs the page's token; reload the page")
    }
    guard let key = object["key"] as? String, (8...64).contains(key.utf8.count), key.utf8.allSatisfy(Self.isKeyByte)
    else {
      throw ProtocolError(.invalid, "the order needs a key of 8 to 64 letters, digits, - or _")
    }
    guard let item = object["item"] as? String, (1...200).contains(item.utf8.count),
      !item.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw ProtocolError(.invalid, "the order needs an item's id")
    }
    let quantity = (object["quantity"] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } ?? 0
    guard (1...PhoneOrder.maximumQuantity).contains(quantity) else {
      throw ProtocolError(.invalid, "the quantity must be a whole number from 1 to \(PhoneOrder.maximumQuantity)")
    }
    self.token = token
    self.key = key
    self.order = PhoneOrder(item: item, quantity: quantity)
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }

  private static func isKeyByte(_ byte: UInt8) -> Bool {
    isHex(byte) || (UInt8(ascii: "g")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "_")
  }
}
