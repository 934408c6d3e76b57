/// Currencies the shop prices in. Amounts are kept in minor units (won, cents).
public enum Currency: String, Sendable, Codable, CaseIterable, Hashable {
  case krw = "KRW"
  case usd = "USD"

  public var minorDigits: Int {
    switch self {
    case .krw: 0
    case .usd: 2
    }
  }

  public init?(code: String) {
    self.init(rawValue: code.uppercased())
  }
}
