/// The database layout, as a list of forward migrations. `PRAGMA user_version` records how many
/// have run; start-up runs the rest in one transaction.
public enum Schema {
  public static let migrations: [String] = [
    // 1: the shop's tables.
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE catalog(id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL, loaded_at REAL NOT NULL);
    CREATE TABLE stock(
      item TEXT PRIMARY KEY, initial INTEGER NOT NULL, restocked INTEGER NOT NULL,
      corrected INTEGER NOT NULL, taken INTEGER NOT NULL, current INTEGER NOT NULL CHECK (current >= 0));
    CREATE TABLE ledger(
      seq INTEGER PRIMARY KEY, item TEXT NOT NULL, change INTEGER NOT NULL, cause TEXT NOT NULL,
      order_id INTEGER, user TEXT NOT NULL, at REAL NOT NULL);
    CREATE TABLE orders(
      id INTEGER PRIMARY KEY, user TEXT NOT NULL, placed REAL NOT NULL, lines TEXT NOT NULL, taken TEXT NOT NULL);
    CREATE TABLE products(
      id TEXT PRIMARY KEY, seq INTEGER NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
      price INTEGER NOT NULL, currency TEXT NOT NULL, discount TEXT, seller TEXT NOT NULL,
      created REAL NOT NULL, updated REAL NOT NULL);
    CREATE TABLE diary(
      id INTEGER PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
      created REAL NOT NULL, updated REAL NOT NULL);
    """,
    // 2: exactly-once orders, the per-item ledger index STOCKTAKE reads, and the table the
    // committer writes to learn whether the disk takes writes again.
    """
    CREATE TABLE order_keys(
      key TEXT PRIMARY KEY, order_id INTEGER NOT NULL, requested TEXT NOT NULL, levels TEXT NOT NULL,
      placed REAL NOT NULL);
    CREATE INDEX ledger_by_item ON ledger(item, seq);
    CREATE TABLE probe(id INTEGER PRIMARY KEY CHECK (id = 1), payload BLOB NOT NULL);
    """,
    // 3: order keys belong to the user who sent them. A key's user is its order's.
    """
    CREATE TABLE order_keys_by_user(
      user TEXT NOT NULL, key TEXT NOT NULL, order_id INTEGER NOT NULL, requested TEXT NOT NULL,
      levels TEXT NOT NULL, placed REAL NOT NULL, PRIMARY KEY (user, key));
    INSERT INTO order_keys_by_user(user, key, order_id, requested, levels, placed)
      SELECT o.user, k.key, k.order_id, k.requested, k.levels, k.placed FROM order_keys k
      JOIN orders o ON o.id = k.order_id;
    DROP TABLE order_keys;
    ALTER TABLE order_keys_by_user RENAME TO order_keys;
    CREATE INDEX order_keys_by_placed ON order_keys(placed);
    """,
    // 4: accounts, and diary entries numbered per owner so an id tells nothing of anyone
    // else's diary. Existing entries are numbered 1, 2, ... per owner in the order they were
    // written; `diary_numbers` keeps each owner's next number, so a deleted number is never reused.
    """
    CREATE TABLE accounts(
      name TEXT PRIMARY KEY, role TEXT NOT NULL CHECK (role IN ('customer', 'staff', 'admin')),
      hash TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
    ALTER TABLE diary ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
    UPDATE diary SET number = (SELECT COUNT(*) FROM diary d WHERE d.owner = diary.owner AND d.id <= diary.id);
    CREATE UNIQUE INDEX diary_by_owner ON diary(owner, number);
    CREATE TABLE diary_numbers(owner TEXT PRIMARY KEY, next INTEGER NOT NULL);
    INSERT INTO diary_numbers(owner, next) SELECT owner, MAX(number) + 1 FROM diary GROUP BY owner;
    CREATE INDEX orders_by_user ON orders(user, id);
    """,
    // 5: the commit log. A group commit of orders, restocks and stocktakes appends one record
    // here instead of writing the stock, ledger, order, key and counter rows; a fold writes those
    // rows from it later and deletes it (see `ShopDatabase+CommitLog`). A server that does not
    // know this table would not see what it holds: the version keeps such a server out.
    """
    CREATE TABLE commit_log(seq INTEGER PRIMARY KEY, record BLOB NOT NULL);
    """,
  ]

  public static var currentVersion: Int { migrations.count }

  /// Brings `database` up to `version` (default: current). Refuses a database from a newer server.
  public static func migrate(_ database: SQLiteDatabase, to version: Int = currentVersion) throws {
    let found = try database.readUserVersion()
    guard found <= currentVersion else {
      throw StorageError(
        "\(database.path) is at schema version \(found), newer than this server's \(currentVersion); "
          + "use a newer stockroomd")
    }
    guard found < version else { return }
    try database.transaction {
      for index in found..<version {
        try database.execute(migrations[index])
      }
      try database.execute("PRAGMA user_version = \(version)")
    }
  }
}
