import StockroomDomain
import StockroomProtocol

/// The engine's half of the command table: for each command the protocol's table names, the
/// handler that answers it and the kind of reply it gives. `CommandHandler` dispatches from here
/// and nowhere else; a command word that only leads to subcommands (USER, DIARY, PRODUCT) has no
/// route, since the protocol's table always resolves it to one of them.
package enum CommandRoutes {
  package static func route(for id: CommandID) -> CommandRoute? { byIndex[id.index] }

  /// `table` as an array in `CommandID.allCases` order: every request looks its route up here,
  /// and indexing costs a load where the dictionary hashes the command's name.
  static let byIndex: [CommandRoute?] = CommandID.allCases.map { table[$0] }

  /// Whether the route at `index` (`CommandID.index`) shows the shop, kept apart so that asking
  /// does not copy the route.
  static func readsShop(at index: Int) -> Bool { readsShopByIndex[index] }

  private static let readsShopByIndex: [Bool] = byIndex.map { $0?.readsShop ?? false }

  static let table: [CommandID: CommandRoute] = connection.merging(shop) { first, _ in first }
    .merging(accounts) { first, _ in first }

  private static let connection: [CommandID: CommandRoute] = [
    .help: .answer { handler, request, _, _, out in try handler.help(request, out: &out) },
    .ping: .answer { _, request, _, _, out in out.ok(request.arguments.first.map(\.text) ?? "PONG") },
    .quit: .answer { _, _, _, session, out in
      session.closing = .clientQuit
      out.ok("bye")
    },
    .hello: .answer { handler, _, role, session, out in handler.hello(session: session, role: role, out: &out) },
    .info: .answer { handler, request, role, session, out in
      try handler.info(request, session: session, role: role, out: &out)
    },
    .watch: .answer { handler, request, _, session, out in try handler.watch(request, session: &session, out: &out) },
    .unwatch: .answer { _, _, _, session, out in
      session.watching = nil
      out.ok("not watching")
    },
    .who: .answer { handler, _, role, _, out in handler.who(role: role, out: &out) },
  ]

  private static let shop: [CommandID: CommandRoute] = [
    .list: .read { handler, request, role, session, out in
      try handler.list(request, session: session, role: role, out: &out)
    },
    .show: .view { handler, request, _, _, out in try handler.show(request, out: &out) },
    .names: .view { handler, _, _, _, out in handler.names(out: &out) },
    .expo: .answer { handler, _, _, _, out in handler.expo(out: &out) },
    .stock: .view { handler, request, _, _, out in try handler.stock(request, out: &out) },
    .stocktake: .read { handler, request, _, session, out in
      try handler.stocktake(request, session: session, out: &out)
    },
    .add: .change { handler, request, _, session in try handler.add(request, session: session) },
    .order: .change { handler, request, _, session in try handler.order(request, session: session) },
    .diaryNew: .change { handler, request, _, session in handler.diaryNew(request, session: session) },
    .diaryList: .view { handler, request, _, session, out in
      try handler.diaryList(request, session: session, out: &out)
    },
    .diaryShow: .view { handler, request, _, session, out in
      try handler.diaryShow(request, session: session, out: &out)
    },
    .diaryEdit: .change { handler, request, _, session in try handler.diaryEdit(request, session: session) },
    .diaryDelete: .change { handler, request, _, session in try handler.diaryDelete(request, session: session) },
    .productNew: .change { handler, request, _, session in try handler.productNew(request, session: session) },
    .productEdit: .changeFromShop { handler, request, _, session in try handler.productEdit(request, session: session)
    },
    .productDelete: .change { handler, request, role, session in
      handler.productDelete(request, session: session, role: role)
    },
    .productList: .view { handler, request, _, _, out in
      try handler.listProducts(Paging(page: request.options[.page], size: request.options[.size]), out: &out)
    },
    .productShow: .view { handler, request, _, _, out in try handler.show(request, out: &out) },
  ]

  private static let accounts: [CommandID: CommandRoute] = [
    .login: .passwordCheck { handler, request, session in try handler.login(request, session: session) },
    .logout: .answer { _, _, _, session, out in
      CommandHandler.logOut(&session)
      out.ok("logout")
    },
    .whoami: .answer { _, _, role, session, out in out.ok(session.user, fields: [("role", role.rawValue)]) },
    .register: .passwordChange { handler, request, session in try handler.register(request, session: session) },
    .passwd: .passwordChange { handler, request, session in try handler.passwd(request, session: session) },
    .userAdd: .passwordChange { handler, request, session in try handler.userAdd(request, session: session) },
    .userPasswd: .passwordChange { handler, request, session in try handler.userPasswd(request, session: session) },
    .userDel: .change { handler, request, _, session in handler.userDel(request, session: session) },
    .userRole: .change { handler, request, _, session in try handler.userRole(request, session: session) },
    .userList: .view { handler, request, _, _, out in try handler.userList(request, out: &out) },
  ]
}
