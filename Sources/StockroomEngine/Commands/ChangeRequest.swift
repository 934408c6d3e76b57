import StockroomDomain
import StockroomProtocol

/// A change a request asks for, and how its reply is written once the change is applied.
///
/// A handler returns it instead of applying the change itself, because when the shop is shared
/// by several nodes the change is applied later, on the shared writer's thread, to the shop as
/// the database holds it then; the reply must come from that result, not from this node's view.
package struct ChangeRequest: Sendable {
  package let mutation: Mutation
  /// Writes the reply to the applied change; may change the session (a login by REGISTER).
  package let answer: @Sendable (Applied, inout Session, inout ReplyEncoder) throws -> Void

  package init(
    _ mutation: Mutation, answer: @escaping @Sendable (Applied, inout Session, inout ReplyEncoder) throws -> Void
  ) {
    self.mutation = mutation
    self.answer = answer
  }
}
