/// What a mutation did, for the reply.
public enum Outcome: Sendable, Equatable {
  case restocked([StockChange])
  case ordered(Order)
  case productSaved(Product, stock: Int)
  case productDeleted(String)
  case diarySaved(DiaryEntry)
  case diaryDeleted(Int)
}
