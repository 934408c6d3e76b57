import Foundation
import StockroomDomain
import Testing

@testable import StockroomEngine

/// A node of a shared store replays the changes other nodes made and compares the shop it ends
/// with to the digest the maker logged (`ShopDigest`); a difference means its cache drifted, and
/// `replayShared` answers nil so the node loads the shop again.
@Suite("Replaying another node's change: a drifted cache is caught")
struct SharedReplayDigestTests {
  private static let at = Date(timeIntervalSince1970: 1_800_000_000)

  /// A shop with one product, `p1`, listed by ann at `price` won.
  private func shop(price: Int) throws -> ShopState {
    var state = ShopState(catalog: .empty, limits: .inMemory)
    let draft = ProductDraft(name: "Jam", price: Money(minorUnits: price, currency: .krw), stock: 3)
    _ = try state.apply(.createProduct(seller: "ann", draft: draft, at: Self.at))
    return state
  }

  /// The edit on its maker's node, and the digest it logs, as the shared writer makes it.
  private func made(_ edit: Mutation, on maker: inout ShopState) throws -> String {
    let events = try maker.apply(edit).events
    return ShopDigest.of(maker, after: events, from: [edit])
  }

  @Test("an edit of a product whose price drifted on this node does not replay as a match")
  func driftedProductIsCaught() throws {
    let edit = Mutation.editProduct(
      id: "p1", user: "ann", changes: ProductChanges(discount: .some(.percent(10))), at: Self.at)
    var maker = try shop(price: 1_000)
    let digest = try made(edit, on: &maker)

    let same = LockedShop(try shop(price: 1_000))
    #expect(try same.replayShared([edit], digest: digest) != nil, "a node in step replays it")
    // No level moved and no counter: only the product's own fields can tell.
    let drifted = LockedShop(try shop(price: 1_200))
    #expect(try drifted.replayShared([edit], digest: digest) == nil, "the drifted node must load the shop again")
  }

  @Test("a product whose description drifted is caught by the next edit of its price")
  func driftedTextIsCaught() throws {
    let edit = Mutation.editProduct(
      id: "P1", user: "ann", changes: ProductChanges(price: Money(minorUnits: 900, currency: .krw)), at: Self.at)
    var maker = try shop(price: 1_000)
    let digest = try made(edit, on: &maker)
    var other = try shop(price: 1_000)
    _ = try other.apply(
      .editProduct(id: "p1", user: "ann", changes: ProductChanges(description: "from the hills"), at: Self.at))
    #expect(other.counters == (try shop(price: 1_000)).counters, "only the text differs")
    #expect(try LockedShop(other).replayShared([edit], digest: digest) == nil)
  }
}
