import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomSecurity
import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroomd user add|del|list|passwd`: accounts managed on the shop's file while no server
/// runs on it, for the first admin account above all, which no one could otherwise create; add
/// and list work on a PostgreSQL store too, where other nodes may be running.
public struct AccountCommand: Sendable, Equatable {
  public var action: AccountAction
  public var dataDirectory: String
  /// A PostgreSQL store to change instead of the file in `dataDirectory` (`--store URL`, or
  /// `STOCKROOM_STORE` as for the server).
  public var store: String? = nil
  /// What the new password's hash costs (`--password-memory`, `--password-passes`, as for the
  /// server); any cost verifies, since a hash records its own.
  public var passwordCost = PasswordCost.interactive

  public static let usage = """
    usage: stockroomd user add NAME [--role customer|staff|admin] [--data DIR | --store URL] [COST]
           stockroomd user passwd NAME [--data DIR] [COST]
           stockroomd user del NAME [--data DIR]
           stockroomd user list [--data DIR | --store URL]

      Changes the accounts in DIR/stockroom.sqlite (default ./data) while no server runs on it;
      a new shop is made there first if there is none. add and passwd ask for the password twice
      on the terminal, without echo, or read it as the first line of standard input:
        printf '%s\\n' "$PASSWORD" | stockroomd user add alice --role admin
      The password is never an argument. A password has 8 to 1,024 bytes; add's role is
      customer unless --role says otherwise. list prints one "name role created" line per account.
      With --store (default $STOCKROOM_STORE), add and list work on that PostgreSQL store instead,
      while its nodes run; change passwords and remove accounts there with USER PASSWD and USER DEL.
      COST is --password-memory MIB and --password-passes N, as for the server (default 64 and 2).
    """

  /// Reads the words after `user`; nil for `--help`.
  public static func parse(
    _ words: [String], environment: [String: String] = [:]
  ) throws(ServerConfiguration.UsageError) -> AccountCommand? {
    // `--flag=value` is read as `--flag value`, as the server's own options are.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    var directory = ServerConfiguration().dataDirectory ?? "data"
    var role: Role? = nil
    var cost = PasswordCost.interactive
    var store = environment["STOCKROOM_STORE"].flatMap { $0.isEmpty ? nil : $0 }
    var positional: [String] = []
    var index = 0
    func value(_ flag: String) throws(ServerConfiguration.UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw usageError("\(flag) needs a value") }
      return arguments[index]
    }
    func number(_ flag: String, _ range: ClosedRange<Int>) throws(ServerConfiguration.UsageError) -> Int {
      let text = try value(flag)
      do {
        return try OptionSettings.integer(text, range)
      } catch {
        throw usageError("\(flag) \(error.message)")
      }
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return nil
      case "--data": directory = try value(argument)
      case "--store": store = try value(argument)
      case "--password-memory": cost.memoryMiB = try number(argument, PasswordCost.memoryRange)
      case "--password-passes": cost.passes = try number(argument, PasswordCost.passesRange)
      case "--role":
        let text = try value(argument)
        guard let parsed = Role(rawValue: text), Role.accountRoles.contains(parsed) else {
          throw usageError("--role takes customer, staff or admin, not '\(text)'")
        }
        role = parsed
      case "--":
        // Everything after is a name, for a name that starts with a dash.
        positional += arguments[(index + 1)...]
        index = arguments.count
        continue
      case "--password", "-p":
        throw usageError(
          "the password is never an argument, where ps and shell history show it; it is asked for, or read as the "
            + "first line of standard input")
      default:
        guard !argument.hasPrefix("-") || argument == "-" else {
          throw usageError("unknown option '\(argument)'")
        }
        positional.append(argument)
      }
      index += 1
    }
    guard let verb = positional.first else { throw usageError("say what to do: add, passwd, del or list") }
    let action = try Self.action(verb, names: Array(positional.dropFirst()), role: role)
    if store != nil, case .passwd = action {
      throw usageError("on a PostgreSQL store, change a password with USER PASSWD as an admin")
    }
    if store != nil, case .delete = action {
      throw usageError("on a PostgreSQL store, remove an account with USER DEL as an admin")
    }
    guard cost == .interactive || verb == "add" || verb == "passwd" else {
      throw usageError("--password-memory and --password-passes are for add and passwd")
    }
    return AccountCommand(action: action, dataDirectory: directory, store: store, passwordCost: cost)
  }

  /// The action `verb` names, with its account name and `add`'s role.
  private static func action(
    _ verb: String, names: [String], role: Role?
  ) throws(ServerConfiguration.UsageError) -> AccountAction {
    guard role == nil || verb == "add" else { throw usageError("--role is for add") }
    switch verb {
    case "list":
      guard names.isEmpty else { throw usageError("list takes no name") }
      return .list
    case "add", "passwd", "del":
      guard names.count == 1 else { throw usageError("\(verb) takes one account name") }
      switch verb {
      case "add": return .add(name: names[0], role: role ?? .customer)
      case "passwd": return .passwd(name: names[0])
      default: return .delete(name: names[0])
      }
    default:
      throw usageError("unknown command '\(verb)'; the commands are add, passwd, del and list")
    }
  }

  private static func usageError(_ message: String) -> ServerConfiguration.UsageError {
    ServerConfiguration.UsageError(message: "\(message); see stockroomd user --help")
  }

  /// Runs `stockroomd user ...` to its end: exit 0 with what was done on stdout, or 1 with one
  /// line on stderr.
  public static func main(_ words: [String]) -> Never {
    let command: AccountCommand
    do {
      guard let parsed = try parse(words, environment: ProcessInfo.processInfo.environment) else {
        print(usage)
        exit(0)
      }
      command = parsed
    } catch {
      fail("\(error)")
    }
    // A file-size limit met while writing must give a message, not a SIGXFSZ.
    Syscall.ignoreSIGPIPE()
    do {
      for line in try command.run() { print(line) }
      exit(0)
    } catch let error as AccountCommandError {
      fail(error.description)
    } catch let error as PasswordError {
      fail("\(error); nothing was changed")
    } catch let error as ShopError {
      fail(error.message)
    } catch {
      let file = ShopDatabase.path(in: command.dataDirectory)
      fail(
        "cannot change the accounts: \(command.store == nil ? StartupDiagnosis.message(for: error, file: file) : "\(error)")"
      )
    }
  }

  private static func fail(_ message: String) -> Never {
    FileHandleWriter.standardError("stockroomd user: \(message)\n")
    exit(1)
  }

  /// Does the work; returns the lines to print. Nothing here prints or returns a password or hash.
  package func run() throws -> [String] {
    if store != nil {
      switch action {
      case .list: return Self.lines(try withShop { opened in opened.read { Array($0.accounts.values) } })
      case .add(let raw, let role): return try add(Account.newName(raw), role: role)
      case .passwd, .delete: preconditionFailure("parse refuses passwd and del on a PostgreSQL store")
      }
    }
    let exposed = ExposedFiles(directory: dataDirectory)
    guard exposed.isEmpty else {
      // The accounts' hashes are secrets too; the server refuses such a shop for the same reason.
      throw AccountCommandError(
        "other users of this machine may read or write \(exposed); make them yours alone with: \(exposed.fix)")
    }
    switch action {
    case .list:
      return Self.lines(try ShopDatabase.withAccounts(directory: dataDirectory) { try ShopDatabase.accounts(in: $0) })
    case .add(let raw, let role):
      return try add(Account.newName(raw), role: role)
    case .passwd(let raw):
      let name = try Account.name(raw)
      try ShopDatabase.withAccounts(directory: dataDirectory) { database in
        guard var account = try ShopDatabase.account(named: name, in: database) else { throw Self.noAccount(name) }
        account.passwordHash = try Self.newHash(for: name, cost: passwordCost)
        account.updated = Date()
        try ShopDatabase.update(account, in: database)
      }
      return ["changed the password of \(name)"]
    case .delete(let raw):
      let name = try Account.name(raw)
      try ShopDatabase.withAccounts(directory: dataDirectory) { database in
        guard try ShopDatabase.deleteAccount(named: name, from: database) else { throw Self.noAccount(name) }
      }
      return ["deleted \(name)"]
    }
  }

  /// One "name role created" line per account, by name.
  private static func lines(_ accounts: [Account]) -> [String] {
    accounts.sorted { $0.name < $1.name }.map { "\($0.name) \($0.role.rawValue) \($0.created.formatted(.iso8601))" }
  }

  /// Makes the account as the server does (`Shop.addAccount`, the account creation REGISTER and
  /// USER ADD run), so a name taken, or looking like a taken one, is refused by the one rule in
  /// `AccountBook`, and on PostgreSQL the running nodes hear of it as of any change.
  private func add(_ name: String, role: Role) throws -> [String] {
    try withShop { opened in
      // Asked before the password, so no one types a password twice only to be told no.
      let (taken, alike) = opened.read { ($0.accounts[name] != nil, $0.accountBook.lookalike(of: name)) }
      guard !taken else {
        throw AccountCommandError(
          "an account named \(Echo.quoted(name)) already exists; change its password with "
            + (store == nil ? "`stockroomd user passwd \(name)`" : "USER PASSWD as an admin"))
      }
      if let alike { throw AccountCommandError(AccountBook.looksTaken(name, like: alike).message) }
      try opened.addAccount(name: name, passwordHash: try Self.newHash(for: name, cost: passwordCost), role: role)
    }
    return ["added \(name) as \(role.rawValue)"]
  }

  /// Opens the shop as a starting server does (the SQLite file, made when missing and refused
  /// while a server runs on it, or the PostgreSQL store), on a catalogue of nothing so that no
  /// item is added, runs `body`, and writes what it changed before returning.
  private func withShop<Result>(_ body: (Shop) throws -> Result) throws -> Result {
    var configuration = ServerConfiguration()
    configuration.dataDirectory = store == nil ? dataDirectory : nil
    configuration.store = store
    configuration.fsync = .always
    let opened = try StoreOpening.open(
      configuration: configuration, catalog: .empty, catalogText: "{}", logger: Logger(isEnabled: false),
      starter: NamedThreadStarter())
    let result: Result
    do {
      result = try body(opened)
    } catch {
      opened.stopWriting()
      throw error
    }
    opened.stopWriting()
    if let reason = opened.readOnlyReason {
      throw AccountCommandError("the store refuses writes (\(reason)); the change may not be saved")
    }
    return result
  }

  /// Asks for the new password, checks it against the rules, and hashes it.
  private static func newHash(for name: String, cost: PasswordCost) throws -> String {
    let password = try PasswordPrompt.read(for: name, confirm: true)
    try password.check()
    return try PasswordHash.make(password, cost: cost)
  }

  private static func noAccount(_ name: String) -> AccountCommandError {
    AccountCommandError("there is no account named \(Echo.quoted(name)); `stockroomd user list` shows them")
  }
}
