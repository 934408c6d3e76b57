/// A shared capacity (the market's products, the diaries' entries) that no handful of owners can
/// fill (docs/security.md, "Fair shares"): each owner holds at most `perOwner`, and the last
/// `reserve` places go only to owners holding fewer than `small`, so once the many-entry owners
/// have filled the rest, a newcomer still gets a place.
public struct ShareCap: Sendable, Equatable {
  /// Why a place was refused.
  public enum Refusal: Sendable, Equatable {
    /// All `total` places are taken.
    case full
    /// The owner holds `perOwner` already.
    case ownerFull
    /// Only the reserve is left, and the owner holds `small` or more.
    case reserved
  }

  public var total: Int
  public var perOwner: Int
  public var reserve: Int
  public var small: Int

  /// Whether an owner holding `held` may take one more place while `used` are taken; nil: it may.
  public func refusal(held: Int, used: Int) -> Refusal? {
    if used >= total { return .full }
    if held >= perOwner { return .ownerFull }
    if used >= total - reserve && held >= small { return .reserved }
    return nil
  }
}
