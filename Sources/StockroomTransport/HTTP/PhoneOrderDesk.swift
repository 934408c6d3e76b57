import Foundation
import StockroomEngine
import Synchronization

/// What stands between a phone's tap and the shop's `ORDER`: the token each phone page carries
/// (issued with the page, so only a page this server served can order: a form on another site
/// has none), and the key each tap carries (a double tap or a retry sends the same one, and is
/// answered the first answer, taking nothing twice). Both are kept in bounded tables with a
/// share for each address (`SourceBoundedTable`).
final class PhoneOrderDesk: Sendable {
  /// What a request's body leads to.
  enum Decision {
    /// Answer now (a refusal, or the answer a key already had).
    case answer(PhoneOrderReply)
    /// Suspend: the same key's order is under way, and its answer will be given here too.
    case wait
    /// Suspend and order: the key is new.
    case order(PhoneOrder, key: String)
  }

  private struct Tables {
    var tokens = SourceBoundedTable<Bool>(
      total: HTTPLimits.pageTokens, perSource: HTTPLimits.pageTokensPerAddress,
      lifetime: HTTPLimits.pageTokenLifetime)
    /// Keys answered, with their order and answer.
    var answered = SourceBoundedTable<(PhoneOrder, PhoneOrderReply)>(
      total: HTTPLimits.orderKeys, perSource: HTTPLimits.orderKeysPerAddress, lifetime: HTTPLimits.orderKeyLifetime)
    /// Keys being ordered, with the requests waiting for the answer: as many as there are
    /// suspended connections at most, which the connection limits bound.
    var pending: [String: (order: PhoneOrder, waiters: [PhoneOrderUpload])] = [:]
  }

  private let tables = Mutex(Tables())

  /// A new page's token: 128 random bits, as hex.
  func newToken(for source: PeerSource) -> String {
    var generator = SystemRandomNumberGenerator()
    let token = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
      .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    tables.withLock { $0.tokens.insert(token, true, from: source, at: .now) }
    return token
  }

  /// Whether a request with these header fields comes from a page of this server: a browser
  /// sends `Origin` with every POST, and it must name the host the page was served from;
  /// `Sec-Fetch-Site`, where the browser sends it, must say the same.
  static func isSameOrigin(origin: String?, host: String?, fetchSite: String?) -> Bool {
    guard let origin, let host, !host.isEmpty else { return false }
    if let fetchSite, fetchSite != "same-origin" { return false }
    let lowered = origin.lowercased()
    return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
  }

  /// What the body of a `POST /order` leads to; nil for a body over `HTTPLimits.orderBody`.
  func submit(_ body: [UInt8]?, upload: PhoneOrderUpload, from source: PeerSource) -> Decision {
    guard let body else {
      return .answer(.refusal(.contentTooLarge, code: "TOOLONG", "the order's body is too large"))
    }
    let form: PhoneOrderForm
    do { form = try PhoneOrderForm(json: body) } catch {
      return .answer(.refusal(.badRequest, code: "INVALID", error.message))
    }
    let now = ContinuousClock.now
    return tables.withLock { tables in
      guard tables.tokens.value(form.token, at: now) != nil else {
        return .answer(
          .refusal(.forbidden, code: "TOKEN", "this page has expired or is not from this shop; reload it to order"))
      }
      let key = form.token + ":" + form.key
      let reused = PhoneOrderReply.refusal(
        .conflict, code: "INVALID", "this tap's key was already used for a different order; tap again")
      if let (order, reply) = tables.answered.value(key, at: now) {
        return .answer(order == form.order ? reply : reused)
      }
      if let pending = tables.pending[key] {
        guard pending.order == form.order else { return .answer(reused) }
        tables.pending[key]?.waiters.append(upload)
        return .wait
      }
      tables.pending[key] = (form.order, [upload])
      return .order(form.order, key: key)
    }
  }

  /// The order under `key` is done: its answer is kept for the key (for `source`), and given
  /// to every request that waited for it (each resumed), which are returned.
  func finish(_ key: String, reply: PhoneOrderReply, from source: PeerSource) -> [PhoneOrderUpload] {
    let waiters = tables.withLock { tables -> [PhoneOrderUpload] in
      guard let pending = tables.pending.removeValue(forKey: key) else { return [] }
      tables.answered.insert(key, (pending.order, reply), from: source, at: .now)
      return pending.waiters
    }
    for waiter in waiters { waiter.deliver(reply) }
    return waiters
  }
}
