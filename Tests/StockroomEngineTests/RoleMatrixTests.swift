import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The command table's policy, walked through the engine (EngineHarness, no socket): every command and subcommand, and every
/// restricted use of one, as a guest, a customer, staff and an admin.
@Suite("Who may do what: the role matrix", .timeLimit(.minutes(30)))
struct RoleMatrixTests {
  /// The least role each path needs, written here by hand: the table must agree with it.
  static let matrix: [String: Role] = [
    "HELP": .guest, "PING": .guest, "QUIT": .guest, "HELLO": .guest, "INFO": .guest, "LIST": .guest,
    "SHOW": .guest, "NAMES": .guest, "EXPO": .guest, "STOCK": .guest, "ORDER": .guest, "WATCH": .guest,
    "UNWATCH": .guest, "WHO": .guest, "LOGIN": .guest, "LOGOUT": .guest, "WHOAMI": .guest, "REGISTER": .guest,
    "PRODUCT LIST": .guest, "PRODUCT SHOW": .guest,
    "DIARY NEW": .customer, "DIARY LIST": .customer, "DIARY SHOW": .customer, "DIARY EDIT": .customer,
    "DIARY DELETE": .customer, "PRODUCT NEW": .customer, "PRODUCT EDIT": .customer, "PRODUCT DELETE": .customer,
    "PASSWD": .customer,
    "ADD": .staff, "STOCKTAKE": .staff,
    "USER ADD": .admin, "USER DEL": .admin, "USER ROLE": .admin, "USER PASSWD": .admin, "USER LIST": .admin,
  ]

  /// Uses of a command that need more than the command itself, with the request that makes one.
  static let restricted: [(request: String, role: Role)] = [
    ("LIST orders", .customer), ("LIST diary", .customer), ("ORDER kiwi key=matrix-1", .customer),
  ]

  /// Requests that change who the connection is, or end it, get a connection of their own.
  static let connectionChanging: Set<String> = ["QUIT", "LOGIN", "LOGOUT", "REGISTER"]

  /// What a role that may use `path` gets for its example when the example fails for a reason
  /// of its own, not the role's; nil where it must succeed. The walk goes in path order, so an
  /// admin's PRODUCT DELETE has delisted alice's p1 before PRODUCT EDIT and SHOW ask for it, and
  /// USER DEL has deleted bob before USER PASSWD and USER ROLE name him.
  private static func answer(to path: String, as role: Role) -> ErrorCode? {
    switch path {
    // The examples' passwords are nobody's here.
    case "LOGIN", "PASSWD": .auth
    // Entry 3 is not this account's: its own diary is empty.
    case "DIARY SHOW", "DIARY EDIT", "DIARY DELETE": .notFound
    case "USER PASSWD", "USER ROLE": .notFound
    // p1 is alice's: only an admin delists another's product, and nobody edits it.
    case "PRODUCT EDIT": role == .admin ? .notFound : .denied
    case "PRODUCT DELETE": role == .admin ? nil : .denied
    case "PRODUCT SHOW": role == .admin ? .notFound : nil
    default: nil
    }
  }

  /// A request for `path`: its first example, which the table promises is a valid one.
  private static func request(for path: String) -> String {
    let spec = CommandTable.allWithPaths.first { $0.path == path }!.spec
    return spec.examples.first ?? path
  }

  @Test("the matrix names every command and subcommand the table has, and no other")
  func matrixCoversTable() {
    let paths = Set(CommandTable.allWithPaths.filter { $0.spec.subcommands.isEmpty }.map(\.path))
    #expect(Set(Self.matrix.keys) == paths)
    for (path, spec) in CommandTable.allWithPaths where spec.subcommands.isEmpty {
      #expect(spec.role == Self.matrix[path], "the table says \(path) needs \(spec.role)")
    }
  }

  @Test("every command and restricted use is allowed from its role up and refused below it", arguments: Role.allCases)
  func walk(as role: Role) throws {
    let server = try EngineHarness(initialStock: 1_000)
    // Something for the examples to find: alice's product p1 and diary entry 1.
    let alice = try server.client(as: "alice")
    #expect(try alice.request("PRODUCT NEW name=Pear price=100 stock=5").statusFields["product"] == "p1")
    #expect(try alice.request("DIARY NEW first entry").isOK)
    let name = "matrix-\(role.rawValue)"
    func connect() throws -> EngineClient {
      role == .guest ? try server.client() : try server.client(as: name, role: role)
    }
    let client = try connect()
    let cases =
      Self.matrix.map { (path: $0.key, request: Self.request(for: $0.key), needs: $0.value) }
      + Self.restricted.map { (path: $0.request, request: $0.request, needs: $0.role) }
    for (path, request, needs) in cases.sorted(by: { $0.path < $1.path }) {
      let on = Self.connectionChanging.contains(path) ? try connect() : client
      let reply = try on.request(request)
      if role >= needs {
        if let expected = Self.answer(to: path, as: role) {
          #expect(reply.errorCode == expected, "\(role) may \(request), refused for its own reason: \(reply.lines)")
        } else {
          #expect(reply.isOK, "\(role) may \(request): \(reply.lines)")
        }
      } else if role == .guest {
        #expect(reply.errorCode == .noAuth, "a guest must log in for \(request): \(reply.lines)")
      } else {
        #expect(reply.errorCode == .denied, "\(role) may not \(request): \(reply.lines)")
      }
    }
    // Selling is a customer's; a product is its seller's, or any admin's to delist.
    let seller = try server.client(as: "seller")
    let plum = try #require(try seller.request("PRODUCT NEW name=Plum price=100").statusFields["product"])
    let edit = try client.request("PRODUCT EDIT \(plum) price=200")
    let delete = try client.request("PRODUCT DELETE \(plum)")
    switch role {
    case .guest:
      #expect(edit.errorCode == .noAuth && delete.errorCode == .noAuth)
    case .customer, .staff:
      #expect(edit.errorCode == .denied && delete.errorCode == .denied, "\(edit.lines) \(delete.lines)")
    case .admin:
      #expect(edit.errorCode == .denied, "an admin delists, but does not edit, another's product")
      #expect(delete.isOK, "\(delete.lines)")
    }
  }

  @Test("HELP shows each command's role from the table")
  func helpShowsRoles() throws {
    let server = try EngineHarness()
    let client = try server.client()
    for (path, needs) in [("ADD", Role.staff), ("USER", .admin), ("LOGIN", .guest), ("PASSWD", .customer)] {
      let rows = try client.request("HELP \(path)").rows
      #expect(rows.first?["role"] == needs.rawValue, "\(path): \(rows)")
    }
    let user = try client.request("HELP USER").rows.first { $0.id == "USER ADD" }
    #expect(user?["role"] == "admin")
    // A restricted use is listed with the role it needs.
    let keyed = try client.request("HELP ORDER").rows.first { $0["restricted"] == "key=" }
    #expect(keyed?["role"] == "customer")
    let orders = try client.request("HELP LIST").rows.first { $0["restricted"] == "orders" }
    #expect(orders?["role"] == "customer")
  }

  @Test("a role given or taken by an admin applies to the account's next request; a removed account is a guest")
  func roleChangesApplyAtOnce() throws {
    let server = try EngineHarness()
    let admin = try server.client(as: "admin", role: .admin)
    let bob = try server.client(as: "bob")
    #expect(try bob.request("ADD kiwi 1").errorCode == .denied)
    #expect(try admin.request("USER ROLE bob staff").isOK)
    #expect(try bob.request("ADD kiwi 1").isOK, "no new login needed")
    #expect(try bob.request("WHOAMI").message == "bob role=staff")
    #expect(try admin.request("USER DEL bob").isOK)
    // A new bob is someone else: the old connection does not become him, even as admin.
    #expect(try admin.request("USER ADD bob another-passphrase role=admin").isOK)
    #expect(try bob.request("DIARY LIST").errorCode == .noAuth)
    #expect(try bob.request("WHOAMI").message == "guest role=guest")
    // A new password ends every other session of the account, but not the one that set it.
    let phone = try server.client()
    let laptop = try server.client()
    for device in [phone, laptop] { #expect(try device.request("LOGIN bob another-passphrase").isOK) }
    #expect(try phone.request("PASSWD another-passphrase a-third-passphrase").isOK)
    #expect(try phone.request("WHOAMI").message == "bob role=admin")
    #expect(try laptop.request("WHOAMI").message == "guest role=guest")
    #expect(try admin.request("USER PASSWD bob a-fourth-passphrase").isOK)
    #expect(try phone.request("WHOAMI").message == "guest role=guest")
    #expect(try admin.request("USER DEL bob").isOK)
    #expect(try admin.request("USER DEL admin").errorCode == .invalid, "the last admin stays")
    #expect(try admin.request("USER ROLE admin staff").errorCode == .invalid)
    #expect(try admin.request("USER ADD guest long-enough-pw").errorCode == .invalid, "guest is no one's name")
    #expect(try admin.request("USER ADD carol long-enough-pw role=root").errorCode == .invalid)
    #expect(try admin.request("USER ADD carol short").errorCode == .invalid)
    #expect(try admin.request("USER ADD carol long-enough-pw role=staff").statusFields["role"] == "staff")
    #expect(try admin.request("USER ADD carol long-enough-pw").errorCode == .exists)
    #expect(try admin.request("USER LIST").rows.map(\.id) == ["admin", "carol"])
  }

  @Test("with --registration closed only an admin makes accounts")
  func closedRegistration() throws {
    let server = try EngineHarness { $0.registration = .closed }
    let client = try server.client()
    #expect(try client.request("REGISTER dave long-enough-pw").errorCode == .denied)
    let admin = try server.client(as: "admin", role: .admin)
    #expect(try admin.request("USER ADD dave long-enough-pw").isOK)
    #expect(try client.request("LOGIN dave long-enough-pw").message == "login dave role=customer")
    #expect(try admin.request("INFO").rows[0]["registration"] == "closed")
  }
}
