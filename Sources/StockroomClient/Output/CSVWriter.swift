import StockroomProtocol

/// Replies as CSV (RFC 4180 quoting, LF line ends as psql writes them): a header row from the
/// rows' keys in the order they first appear, then one line per row. Values are the server's,
/// unformatted, so a spreadsheet sorts timestamps and numbers as they are.
public enum CSVWriter {
  /// The rows of an OK reply; one with no rows gives its status fields (`order=17 total=…`)
  /// as a single row, and nothing when it has none. An ERR is the caller's to put on stderr.
  public static func render(_ reply: Reply) -> String {
    guard reply.isOK else { return reply.lines.last.map { $0 + "\n" } ?? "" }
    if !reply.rows.isEmpty { return table(reply.rows) }
    var status = reply.statusFields
    status.id = nil
    status.fields.removeAll { $0.key.isEmpty }
    return status.fields.isEmpty ? "" : table([status])
  }

  /// An event as its own one-row table, its kind in an `event` column.
  public static func render(event row: Row) -> String {
    var fields = row.fields
    fields.insert((key: "event", value: row.id ?? ""), at: 0)
    return table([Row(fields: fields)])
  }

  public static func table(_ rows: [Row]) -> String {
    var keys: [String] = []
    for row in rows {
      for field in row.fields where !keys.contains(field.key) { keys.append(field.key) }
    }
    let hasID = rows.contains { $0.id != nil }
    let header = (hasID ? ["id"] : []) + keys.map { $0.isEmpty ? "-" : $0 }
    var out = line(header)
    for row in rows {
      out += line((hasID ? [row.id ?? ""] : []) + keys.map { row[$0] ?? "" })
    }
    return out
  }

  private static func line(_ values: [String]) -> String {
    values.map(field).joined(separator: ",") + "\n"
  }

  /// Quoted when it holds a comma, a quote or a line break, quotes doubled (RFC 4180 §2.6-7).
  /// A leading or trailing space is quoted too, so no reader trims it away.
  public static func field(_ value: String) -> String {
    // Scalars, not Characters: "\r\n" is one Character and equals neither "\r" nor "\n".
    let special = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
    let padded = value.first == " " || value.last == " "
    guard special || padded else { return value }
    var out = "\""
    for scalar in value.unicodeScalars {
      if scalar == "\"" { out += "\"" }
      out.unicodeScalars.append(scalar)
    }
    return out + "\""
  }
}
