import Foundation
import StockroomDomain

/// The statements that write a journal batch's rows to a PostgreSQL store, built rather than
/// run, so that a commit sends them all in one round trip (`PostgresConnection.pipeline`)
/// while it holds the store's writers' lock.
enum PostgresRowWrites {
  /// Every row `batch` sets or removes. `countersBefore`: the counters as the database holds
  /// them, so that only those that moved are written; nil writes them all.
  static func statements(for batch: JournalBatch, countersBefore: ShopCounters?) -> [PostgresStatement] {
    var statements = stock(batch) + ledger(batch) + receipts(batch) + products(batch) + diary(batch)
    statements += accounts(batch)
    if let counters = batch.counters {
      // The counters that moved (an order moves two), in one statement.
      let rows = counters.metaRows(changedSince: countersBefore)
      if !rows.isEmpty {
        statements.append(
          PostgresStatement(
            """
            INSERT INTO meta(key, value) SELECT * FROM unnest($1::text[], $2::bigint[])
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """,
            [PostgresStatement.array(rows.map(\.key)), PostgresStatement.array(rows.map { String($0.value) })],
            prepared: true))
      }
    }
    return statements
  }

  /// The stock levels it set and the items it removed.
  private static func stock(_ batch: JournalBatch) -> [PostgresStatement] {
    batch.stock.map { item, level in
      PostgresStatement(
        """
        INSERT INTO stock(item, initial, restocked, corrected, taken, current) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (item) DO UPDATE SET initial = excluded.initial, restocked = excluded.restocked,
          corrected = excluded.corrected, taken = excluded.taken, current = excluded.current
        """,
        [
          item, String(level.initial), String(level.restocked), String(level.corrected), String(level.taken),
          String(level.current),
        ], prepared: true)
    } + batch.deletedStock.map { PostgresStatement("DELETE FROM stock WHERE item = $1", [$0]) }
  }

  /// The ledger lines and orders it adds: the many rows of a busy batch, each table's in one
  /// prepared statement that takes every column as an array.
  private static func ledger(_ batch: JournalBatch) -> [PostgresStatement] {
    var statements: [PostgresStatement] = []
    if !batch.ledger.isEmpty {
      let entries = batch.ledger
      statements.append(
        PostgresStatement(
          """
          INSERT INTO ledger(item, change, cause, order_id, user_name, at)
          SELECT item, change, cause, order_id, user_name, to_timestamp(at)
          FROM unnest($1::text[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::float8[])
            AS r(item, change, cause, order_id, user_name, at)
          """,
          [
            PostgresStatement.array(entries.map(\.item)),
            PostgresStatement.array(entries.map { String($0.change) }),
            PostgresStatement.array(entries.map(\.cause)),
            PostgresStatement.array(entries.map { $0.orderID.map(String.init) }),
            PostgresStatement.array(entries.map(\.user)),
            PostgresStatement.array(seconds(entries.map(\.at))),
          ], prepared: true))
    }
    if !batch.orders.isEmpty {
      let orders = batch.orders
      statements.append(
        PostgresStatement(
          """
          INSERT INTO orders(id, user_name, placed, lines, taken)
          SELECT id, user_name, to_timestamp(placed), lines, taken
          FROM unnest($1::bigint[], $2::text[], $3::float8[], $4::text[], $5::text[])
            AS r(id, user_name, placed, lines, taken)
          """,
          [
            PostgresStatement.array(orders.map { String($0.id) }),
            PostgresStatement.array(orders.map(\.user)),
            PostgresStatement.array(seconds(orders.map(\.placed))),
            PostgresStatement.array(orders.map { RowText.lines($0.lines) }),
            PostgresStatement.array(orders.map { RowText.counts($0.taken) }),
          ], prepared: true))
    }
    return statements
  }

  /// Each time as seconds since 1970, in the text a float8 parameter takes. A batch's rows mostly
  /// share one time (a commit's orders are applied together), and a `Double`'s text is dear, so a
  /// time like the one before it reuses that one's.
  private static func seconds(_ dates: [Date]) -> [String?] {
    var previous: (date: Date, text: String)?
    return dates.map { date in
      if let previous, previous.date == date { return previous.text }
      let text = String(date.timeIntervalSince1970)
      previous = (date, text)
      return text
    }
  }

  /// The receipts kept for orders' keys.
  private static func receipts(_ batch: JournalBatch) -> [PostgresStatement] {
    batch.receipts.compactMap { receipt in
      guard let key = receipt.key else { return nil }
      return PostgresStatement(
        """
        INSERT INTO order_keys(user_name, key, order_id, requested, levels, placed)
        VALUES ($1, $2, $3, $4, $5, to_timestamp($6::float8))
        ON CONFLICT (user_name, key) DO UPDATE SET order_id = excluded.order_id, requested = excluded.requested,
          levels = excluded.levels, placed = excluded.placed
        """,
        [
          receipt.order.user, key, String(receipt.order.id), RowText.counts(receipt.requested),
          RowText.counts(receipt.levels), String(receipt.order.placed.timeIntervalSince1970),
        ], prepared: true)
    }
  }

  /// The market products it listed, changed or removed.
  private static func products(_ batch: JournalBatch) -> [PostgresStatement] {
    batch.products.values.map { item in
      PostgresStatement(
        """
        INSERT INTO products(id, seq, name, description, price, currency, discount, seller, created, updated)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::float8), to_timestamp($10::float8))
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
          price = excluded.price, currency = excluded.currency, discount = excluded.discount,
          updated = excluded.updated
        """,
        [
          item.id, String(Int(item.id.dropFirst()) ?? 0), item.name, item.description,
          String(item.price.minorUnits), item.price.currency.rawValue, RowText.discount(item.discount), item.seller,
          String(item.created.timeIntervalSince1970), String(item.updated.timeIntervalSince1970),
        ])
    } + batch.deletedProducts.map { PostgresStatement("DELETE FROM products WHERE id = $1", [$0]) }
  }

  /// The diary entries it wrote or removed, and each owner's next number.
  private static func diary(_ batch: JournalBatch) -> [PostgresStatement] {
    let deleted = batch.deletedDiary.map { PostgresStatement("DELETE FROM diary WHERE id = $1", [String($0)]) }
    let written = batch.diary.values.map { entry in
      PostgresStatement(
        """
        INSERT INTO diary(id, number, owner, title, body, created, updated)
        VALUES ($1, $2, $3, $4, $5, to_timestamp($6::float8), to_timestamp($7::float8))
        ON CONFLICT (id) DO UPDATE SET number = excluded.number, owner = excluded.owner, title = excluded.title,
          body = excluded.body, created = excluded.created, updated = excluded.updated
        """,
        [
          String(entry.id), String(entry.number), entry.owner, entry.title, entry.body,
          String(entry.created.timeIntervalSince1970), String(entry.updated.timeIntervalSince1970),
        ])
    }
    let numbers = batch.diaryNumbers.map { owner, next in
      PostgresStatement(
        "INSERT INTO diary_numbers(owner, next) VALUES ($1, $2) ON CONFLICT (owner) DO UPDATE SET next = excluded.next",
        [owner, String(next)])
    }
    return deleted + written + numbers
  }

  /// The accounts it made, changed or removed.
  private static func accounts(_ batch: JournalBatch) -> [PostgresStatement] {
    batch.deletedAccounts.map { PostgresStatement("DELETE FROM accounts WHERE name = $1", [$0]) }
      + batch.accounts.values.map { account in
        PostgresStatement(
          """
          INSERT INTO accounts(name, role, hash, created, updated)
          VALUES ($1, $2, $3, to_timestamp($4::float8), to_timestamp($5::float8))
          ON CONFLICT (name) DO UPDATE SET role = excluded.role, hash = excluded.hash, created = excluded.created,
            updated = excluded.updated
          """,
          [
            account.name, account.role.rawValue, account.passwordHash, String(account.created.timeIntervalSince1970),
            String(account.updated.timeIntervalSince1970),
          ])
      }
  }
}
