import Foundation
import StockroomDomain
import StockroomText

/// The `accounts` table: who may log in, with which role, and the Argon2id hash of their
/// password, which is stored and read here but never made, checked or shown.
///
/// The row functions take a connection and run no transaction of their own, so the committer can
/// call them inside its group commit; `withAccounts` is the offline way in, for
/// `stockroomd user`, with the locks and checks a starting server takes.
extension ShopDatabase {
  /// Every account, by name.
  public static func accounts(in database: SQLiteDatabase) throws -> [Account] {
    try database.prepare("SELECT name, role, hash, created, updated FROM accounts ORDER BY name").rows([], readAccount)
  }

  /// The account called `name` (as `Account.name` gives it), if there is one.
  public static func account(named name: String, in database: SQLiteDatabase) throws -> Account? {
    try database.prepare("SELECT name, role, hash, created, updated FROM accounts WHERE name = ?")
      .rows([.text(name)], readAccount).first
  }

  /// Replaces the role, hash and `updated` of the account with `account`'s name (its `created`
  /// stays as stored); false when there is no such account.
  @discardableResult
  public static func update(_ account: Account, in database: SQLiteDatabase) throws -> Bool {
    try check(account)
    guard try Self.account(named: account.name, in: database) != nil else { return false }
    try database.prepare("UPDATE accounts SET role = ?, hash = ?, updated = ? WHERE name = ?").run([
      .text(account.role.rawValue), .text(account.passwordHash), .real(account.updated.timeIntervalSince1970),
      .text(account.name),
    ])
    return true
  }

  /// Removes the account called `name`; false when there was none. What the account made in
  /// the shop (orders, products, diary entries) stays: those rows name their user as text.
  @discardableResult
  public static func deleteAccount(named name: String, from database: SQLiteDatabase) throws -> Bool {
    guard try account(named: name, in: database) != nil else { return false }
    try database.prepare("DELETE FROM accounts WHERE name = ?").run([.text(name)])
    return true
  }

  /// Opens the shop in `directory` exactly as a starting server does (creating the directory
  /// 0700 and a new shop when there is no database, taking `stockroom.lock` and the lock on the
  /// database file, checking and migrating it), then runs `body` in one transaction on a
  /// connection of its own, committed when it returns. While a server runs on the directory the
  /// locks are taken and this throws, naming its pid: a server keeps the accounts in memory and
  /// would never see the change.
  public static func withAccounts<Result>(
    directory: String, _ body: (SQLiteDatabase) throws -> Result
  ) throws -> Result {
    let shop = try ShopDatabase(directory: directory, fsync: .always)
    do {
      // `holding: shop` keeps the locks until this connection has closed (see FileLock).
      let database = try SQLiteDatabase(path: shop.path, create: false, holding: shop)
      try database.execute("PRAGMA synchronous = FULL")
      // Not `transaction`: its cached BEGIN and COMMIT keep their connection alive for ever,
      // and this one must close, after the other two, for SQLite to tidy the log away.
      try database.execute("BEGIN IMMEDIATE")
      let result: Result
      do {
        result = try body(database)
        try database.execute("COMMIT")
      } catch {
        try? database.execute("ROLLBACK")
        throw error
      }
      // Folds the change into the database file itself, so that the file alone, copied while
      // no server runs, holds the accounts too.
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      return result
    } catch let error as SQLiteError {
      throw StorageError(error.explained(file: shop.path))
    }
  }

  private static func check(_ account: Account) throws {
    guard try Account.name(account.name) == account.name else {
      throw ShopError(.invalid, "an account's name must be stored NFC-normalized, as Account.name gives it")
    }
    guard Role.accountRoles.contains(account.role) else {
      throw ShopError(.invalid, "an account's role is customer, staff or admin, not \(account.role.rawValue)")
    }
  }

  private static func readAccount(_ row: SQLiteStatement) throws -> Account {
    guard let role = Role(rawValue: row.text(1)), Role.accountRoles.contains(role) else {
      throw DamagedRow("role of account \(row.text(0))", row.text(1))
    }
    return Account(
      name: row.text(0), role: role, passwordHash: row.text(2), created: Date(timeIntervalSince1970: row.double(3)),
      updated: Date(timeIntervalSince1970: row.double(4)))
  }
}
