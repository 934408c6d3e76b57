/// Whose share of a pool or a cap a piece of work takes: a source address (an IPv6 /64 is one),
/// or the account it acts for where it has one, so that one customer on many hosts is still one
/// source (docs/security.md, "Fair shares").
package enum ShareKey: Hashable, Sendable {
  case address(PeerSource)
  case account(String)

  /// The account when there is one, else the address; nil when there is neither (a test of the
  /// core without a socket, acting for no one).
  package static func of(account: String?, source: PeerSource?) -> ShareKey? {
    if let account { return .account(account) }
    return source.map(ShareKey.address)
  }
}
