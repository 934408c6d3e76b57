import Foundation
import StockroomSecurity
import StockroomStorage
import StockroomTestSupport
import Testing

/// `stockroomd user ...` as an operator runs it: the real binary on a real data directory, the
/// password on standard input, output through files.
@Suite("Accounts from the command line", .timeLimit(.minutes(30)))
struct AccountCommandTests {
  /// The `accounts` rows as stored, read with a connection of the test's own.
  private func rows(_ data: DataDirectory) throws -> [String: (role: String, hash: String)] {
    let database = try SQLiteDatabase(path: data.database, readOnly: true)
    let rows = try database.prepare("SELECT name, role, hash FROM accounts").rows { row in
      (row.text(0), (role: row.text(1), hash: row.text(2)))
    }
    return Dictionary(uniqueKeysWithValues: rows)
  }

  @Test("--password-memory and --password-passes set the cost of add's and passwd's hash, and are refused elsewhere")
  func passwordCost() throws {
    let data = try DataDirectory()
    let added = try data.user(
      ["add", "carol", "--password-memory", "8", "--password-passes", "3"], input: "carols-password\n")
    #expect(added.status == 0, "\(added.errors)")
    let stored = try #require(try rows(data)["carol"])
    #expect(stored.hash.contains("$m=8192,t=3,p=1$"))
    #expect(PasswordHash.verify(stored.hash, Password("carols-password")))
    let changed = try data.user(["passwd", "carol", "--password-memory", "2"], input: "carols-new-password\n")
    #expect(changed.status == 0, "\(changed.errors)")
    #expect(try #require(try rows(data)["carol"]).hash.contains("$m=2048,t=2,p=1$"))
    for (words, said) in [
      (["list", "--password-memory", "8"], "--password-memory and --password-passes are for add and passwd"),
      (["add", "dan", "--password-memory", "0"], "--password-memory"),
      (["add", "dan", "--password-passes", "33"], "--password-passes"),
    ] {
      let refused = try data.user(words, input: "dans-password\n")
      #expect(refused.status != 0 && refused.errors.contains(said), "\(words): \(refused.errors)")
    }
    #expect(try rows(data)["dan"] == nil)
  }

  @Test func addListPasswdDelete() throws {
    let data = try DataDirectory()
    let first = "tulip-Garden-42"
    let added = try data.user(["add", "alice", "--role", "admin"], input: first + "\n")
    #expect(added.status == 0, "\(added.errors)")
    #expect(added.output == "added alice as admin\n")
    #expect(added.errors == "")
    // The command made the shop, private as the server makes it.
    let mode = try FileManager.default.attributesOfItem(atPath: data.database)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    let stored = try #require(try rows(data)["alice"])
    #expect(stored.role == "admin")
    #expect(stored.hash.hasPrefix("$argon2id$"))
    // Without --password-memory or --password-passes, libsodium's interactive cost.
    #expect(stored.hash.contains("$m=65536,t=2,p=1$"))
    #expect(!stored.hash.contains(first))
    #expect(PasswordHash.verify(stored.hash, Password(first)))
    #expect(!PasswordHash.verify(stored.hash, Password(first + "\n")))
    #expect(!PasswordHash.verify(stored.hash, Password("tulip-garden-42")))

    // Without --role, a customer; a last line without its newline is still the password.
    let bob = try data.user(["add", "bob"], input: "bobs-password")
    #expect(bob.status == 0, "\(bob.errors)")
    #expect(PasswordHash.verify(try #require(try rows(data)["bob"]).hash, Password("bobs-password")))

    let listed = try data.user(["list"])
    #expect(listed.status == 0, "\(listed.errors)")
    let lines = listed.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(lines.map { $0.prefix(2) } == [["alice", "admin"], ["bob", "customer"]])
    #expect(lines.allSatisfy { $0.count == 3 && $0[2].hasPrefix("20") && $0[2].hasSuffix("Z") })

    let second = "orchid-Fountain-7"
    let changed = try data.user(["passwd", "alice"], input: second + "\nignored second line\n")
    #expect(changed.status == 0, "\(changed.errors)")
    #expect(changed.output == "changed the password of alice\n")
    let rehashed = try #require(try rows(data)["alice"])
    #expect(rehashed.hash != stored.hash)
    #expect(rehashed.role == "admin")
    #expect(PasswordHash.verify(rehashed.hash, Password(second)))
    #expect(!PasswordHash.verify(rehashed.hash, Password(first)))

    let again = try data.user(["add", "alice"], input: "whatever-it-is\n")
    #expect(again.status == 1)
    #expect(again.errors.contains("already exists") && again.errors.contains("user passwd alice"))

    let deleted = try data.user(["del", "alice"])
    #expect(deleted.status == 0, "\(deleted.errors)")
    #expect(try rows(data)["alice"] == nil)
    #expect(try data.user(["list"]).output.split(separator: "\n").map { $0.prefix(4) } == ["bob "])
    let missing = try data.user(["del", "alice"])
    #expect(missing.status == 1)
    #expect(missing.errors.contains("no account named 'alice'"))
    #expect(try data.user(["passwd", "alice"], input: "long-enough-1\n").status == 1)

    for run in [added, bob, listed, changed, again, deleted, missing] {
      for secret in [first, second, "bobs-password", "$argon2id", stored.hash, rehashed.hash] {
        // A Bool first, so that a failure does not print the secret.
        let shown = run.shown.contains(secret)
        #expect(!shown, "a password or hash is shown")
      }
    }
  }

  /// A server keeps the accounts in memory, so while one runs on the directory the command
  /// takes neither lock and changes nothing. A shop the command made is one the server starts on.
  @Test("on a PostgreSQL store, add makes the account through the store while a node runs, which hears of it")
  func addOnPostgreSQL() throws {
    let data = try DataDirectory(store: .postgresql)
    let url = try data.postgresURL()
    let (node, port) = try data.start()
    defer { node.process.terminate() }
    let password = LineClient.password(for: "bob")
    let added = try data.user(["add", "bob", "--role", "staff", "--store", url], input: password + "\n")
    #expect(added.status == 0, "\(added.errors)")
    #expect(added.output == "added bob as staff\n")
    // The running node learns of the account as of any change made on another node.
    try waitUntil { (try? PostgresShop.client(port, as: "bob")) != nil }
    let stored = try PostgresConnection(PostgresURL(url)).query("SELECT role, hash FROM accounts WHERE name = 'bob'")
      .values
    #expect(stored.count == 1 && stored.first?[0] == "staff")
    #expect(PasswordHash.verify(try #require(stored.first?[1] ?? nil), Password(password)))

    // The store's own rule for names that look alike, before any password is asked for.
    let alike = try data.user(["add", "Bob", "--store", url])
    #expect(alike.status == 1)
    #expect(alike.errors.contains("looks like the existing account 'bob'"), "\(alike.errors)")
    let listed = try data.user(["list", "--store", url])
    #expect(listed.status == 0, "\(listed.errors)")
    #expect(listed.output.split(separator: "\n").contains { $0.hasPrefix("bob staff 20") }, "\(listed.output)")
    let passwd = try data.user(["passwd", "bob", "--store", url], input: "another-password\n")
    #expect(passwd.status == 1)
    #expect(passwd.errors.contains("USER PASSWD"), "\(passwd.errors)")
    for run in [added, alike, listed, passwd] {
      let shown = run.shown.contains(password) || run.shown.contains("$argon2id")
      #expect(!shown, "a password or hash is shown")
    }
  }

  @Test func refusedWhileAServerRuns() throws {
    let data = try DataDirectory()
    #expect(try data.user(["add", "first"], input: "first-password\n").status == 0)
    let (daemon, _) = try data.start()
    defer { daemon.process.terminate() }
    let refused = try data.user(["add", "second"], input: "second-password\n")
    #expect(refused.status == 1)
    #expect(refused.errors.contains("in use by another stockroomd (pid \(daemon.process.processIdentifier))"))
    #expect(refused.errors.hasPrefix("stockroomd user: "))
    #expect(refused.errors.split(separator: "\n").count == 1)
    #expect(!refused.shown.contains("second-password"))
    #expect(try data.user(["list"]).status == 1)
    #expect(try data.user(["del", "first"]).status == 1)
    #expect(try rows(data).keys.sorted() == ["first"])
  }

  @Test func passwordsAndNamesTheRulesRefuse() throws {
    let data = try DataDirectory()
    let short = try data.user(["add", "carol"], input: "1234567\n")
    #expect(short.status == 1)
    #expect(short.errors.contains("at least 8 bytes"))
    #expect(!short.shown.contains("1234567"))
    let long = try data.user(["add", "carol"], input: String(repeating: "p", count: 1025) + "\n")
    #expect(long.status == 1)
    #expect(long.errors.contains("at most 1,024 bytes"))
    let empty = try data.user(["add", "carol"], input: "")
    #expect(empty.status == 1)
    #expect(empty.errors.contains("standard input is empty"))
    let blank = try data.user(["add", "carol"], input: "\n")
    #expect(blank.status == 1)
    #expect(blank.errors.contains("at least 8 bytes"))
    #expect(try rows(data).isEmpty)
    // Exactly the shortest and the longest allowed.
    #expect(try data.user(["add", "carol"], input: "12345678\n").status == 0)
    let longest = String(repeating: "q", count: 1024)
    #expect(try data.user(["add", "dave"], input: longest + "\n").status == 0)
    #expect(PasswordHash.verify(try #require(try rows(data)["dave"]).hash, Password(longest)))

    for name in ["guest", "Guest", "12345", "a b", "ａｌｉｃｅ"] {
      let refused = try data.user(["add", name], input: "good-password\n")
      #expect(refused.status == 1, "\(name)")
      #expect(refused.errors.hasPrefix("stockroomd user: "))
    }
    for arguments in [
      ["add"], ["add", "x", "y"], ["list", "x"], ["frob"], ["add", "x", "--role", "guest"],
      ["del", "x", "--role", "admin"], ["add", "x", "--password", "p"],
    ] {
      let refused = try data.user(arguments, input: "good-password\n")
      #expect(refused.status == 1, "\(arguments)")
      #expect(refused.errors.contains("stockroomd user --help"), "\(arguments): \(refused.errors)")
    }
    #expect(try rows(data).keys.sorted() == ["carol", "dave"])
  }

  /// On a terminal the password is asked for twice and never shown, and the terminal echoes
  /// again afterwards, after a mismatch and after a Ctrl-C at the prompt too.
  @Test func asksOnTheTerminalWithoutEcho() throws {
    let data = try DataDirectory()
    let typed = "typed-Secret-5"

    let terminal = try AccountTerminal()
    defer { terminal.stop() }
    try terminal.start(["user", "add", "tina", "--role", "staff", "--data", data.path])
    try terminal.waitFor("password for tina:")
    try terminal.typeLine(typed)
    try terminal.waitFor("again:")
    try terminal.typeLine(typed)
    let screen = try terminal.waitFor("[done]")
    #expect(screen.contains("added tina as staff"))
    #expect(screen.contains("[exited 0]"))
    #expect(!screen.contains(typed))
    #expect(screen.split(separator: "\n").contains("echo"), "echo left off:\n\(screen)")
    let stored = try #require(try rows(data)["tina"])
    #expect(PasswordHash.verify(stored.hash, Password(typed)))

    let differ = try AccountTerminal()
    defer { differ.stop() }
    try differ.start(["user", "passwd", "tina", "--data", data.path])
    try differ.waitFor("password for tina:")
    try differ.typeLine("another-Secret-6")
    try differ.waitFor("again:")
    try differ.typeLine("another-Secret-7")
    let refused = try differ.waitFor("[done]")
    #expect(refused.contains("the two passwords differ"))
    #expect(refused.contains("[exited 1]"))
    #expect(!refused.contains("another-Secret"))
    #expect(refused.split(separator: "\n").contains("echo"), "echo left off:\n\(refused)")

    let interrupted = try AccountTerminal()
    defer { interrupted.stop() }
    try interrupted.start(["user", "passwd", "tina", "--data", data.path])
    try interrupted.waitFor("password for tina:")
    try interrupted.interrupt()
    let stopped = try interrupted.waitFor("[done]")
    #expect(stopped.contains("[exited 130]"))
    #expect(stopped.split(separator: "\n").contains("echo"), "echo left off after Ctrl-C:\n\(stopped)")
    #expect(try #require(try rows(data)["tina"]).hash == stored.hash)
  }
}
