import Foundation
import StockroomDomain
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
/// runs on it, for the first admin account above all, which no one could otherwise create.
public struct AccountCommand: Sendable, Equatable {
  public var action: AccountAction
  public var dataDirectory: String

  public static let usage = """
    usage: stockroomd user add NAME [--role customer|staff|admin] [--data DIR]
           stockroomd user passwd NAME [--data DIR]
           stockroomd user del NAME [--data DIR]
           stockroomd user list [--data DIR]

      Changes the accounts in DIR/stockroom.sqlite (default ./data) while no server runs on it;
      a new shop is made there first if there is none. add and passwd ask for the password twice
      on the terminal, without echo, or read it as the first line of standard input:
        printf '%s\\n' "$PASSWORD" | stockroomd user add alice --role admin
      The password is never an argument. A password has 8 to 1,024 bytes; add's role is
      customer unless --role says otherwise. list prints one "name role created" line per account.
    """

  /// Reads the words after `user`; nil for `--help`.
  public static func parse(_ words: [String]) throws(ServerConfiguration.UsageError) -> AccountCommand? {
    // `--flag=value` is read as `--flag value`, as the server's own options are.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    var directory = ServerConfiguration().dataDirectory ?? "data"
    var role: Role? = nil
    var positional: [String] = []
    var index = 0
    func value(_ flag: String) throws(ServerConfiguration.UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw usageError("\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return nil
      case "--data": directory = try value(argument)
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
    let names = Array(positional.dropFirst())
    guard role == nil || verb == "add" else { throw usageError("--role is for add") }
    let action: AccountAction
    switch verb {
    case "list":
      guard names.isEmpty else { throw usageError("list takes no name") }
      action = .list
    case "add", "passwd", "del":
      guard names.count == 1 else { throw usageError("\(verb) takes one account name") }
      switch verb {
      case "add": action = .add(name: names[0], role: role ?? .customer)
      case "passwd": action = .passwd(name: names[0])
      default: action = .delete(name: names[0])
      }
    default:
      throw usageError("unknown command '\(verb)'; the commands are add, passwd, del and list")
    }
    return AccountCommand(action: action, dataDirectory: directory)
  }

  private static func usageError(_ message: String) -> ServerConfiguration.UsageError {
    ServerConfiguration.UsageError(message: "\(message); see stockroomd user --help")
  }

  /// Runs `stockroomd user ...` to its end: exit 0 with what was done on stdout, or 1 with one
  /// line on stderr.
  public static func main(_ words: [String]) -> Never {
    let command: AccountCommand
    do {
      guard let parsed = try parse(words) else {
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
      fail("cannot change the accounts: \(StartupDiagnosis.message(for: error, file: file))")
    }
  }

  private static func fail(_ message: String) -> Never {
    FileHandleWriter.standardError("stockroomd user: \(message)\n")
    exit(1)
  }

  /// Does the work; returns the lines to print. Nothing here prints or returns a password or hash.
  package func run() throws -> [String] {
    let exposed = ExposedFiles(directory: dataDirectory)
    guard exposed.isEmpty else {
      // The accounts' hashes are secrets too; the server refuses such a shop for the same reason.
      throw AccountCommandError(
        "other users of this machine may read or write \(exposed); make them yours alone with: \(exposed.fix)")
    }
    switch action {
    case .list:
      let accounts = try ShopDatabase.withAccounts(directory: dataDirectory) { try ShopDatabase.accounts(in: $0) }
      return accounts.map { "\($0.name) \($0.role.rawValue) \($0.created.formatted(.iso8601))" }
    case .add(let raw, let role):
      let name = try Account.newName(raw)
      try ShopDatabase.withAccounts(directory: dataDirectory) { database in
        // Asked before the password, so no one types a password twice only to be told no.
        guard try ShopDatabase.account(named: name, in: database) == nil else {
          throw AccountCommandError(
            "an account named \(Echo.quoted(name)) already exists; change its password with "
              + "`stockroomd user passwd \(name)`")
        }
        // The new name's probes once, against each account's looks.
        let probes = LookalikeKey.probes(of: name) ?? []
        let alike = { (other: Account) in
          other.name != name && LookalikeKey.looks(of: other.name)?.contains(where: probes.contains) == true
        }
        if let existing = try ShopDatabase.accounts(in: database).first(where: alike) {
          throw AccountCommandError(AccountBook.looksTaken(name, like: existing.name).message)
        }
        let hash = try Self.newHash(for: name)
        let now = Date()
        try ShopDatabase.insert(
          Account(name: name, role: role, passwordHash: hash, created: now, updated: now), into: database)
      }
      return ["added \(name) as \(role.rawValue)"]
    case .passwd(let raw):
      let name = try Account.name(raw)
      try ShopDatabase.withAccounts(directory: dataDirectory) { database in
        guard var account = try ShopDatabase.account(named: name, in: database) else { throw Self.noAccount(name) }
        account.passwordHash = try Self.newHash(for: name)
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

  /// Asks for the new password, checks it against the rules, and hashes it.
  private static func newHash(for name: String) throws -> String {
    let password = try PasswordPrompt.read(for: name, confirm: true)
    try password.check()
    return try PasswordHash.make(password)
  }

  private static func noAccount(_ name: String) -> AccountCommandError {
    AccountCommandError("there is no account named \(Echo.quoted(name)); `stockroomd user list` shows them")
  }
}
