/// What a mutation did, for the reply.
public enum Outcome: Sendable, Equatable {
  case restocked([StockChange])
  /// `repeated` when a keyed order had already been placed and nothing new was taken.
  case ordered(OrderReceipt, repeated: Bool)
  /// A retry of keyed order `orderID`, already on disk: its receipt is read there, so
  /// that the shop need not hold every receipt in memory.
  case reordered(OrderKey, orderID: Int)
  case productSaved(Product)
  case productDeleted(String)
  case diarySaved(DiaryEntry)
  /// The entry's store id.
  case diaryDeleted(Int)
  case accountSaved(Account)
  case accountDeleted(String)
}
