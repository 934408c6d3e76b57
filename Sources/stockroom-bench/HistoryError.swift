/// Why a history could not be read: the line (1-based) and what is wrong with it.
struct HistoryError: Error, Equatable, CustomStringConvertible {
  var line: Int
  var message: String

  var description: String { "line \(line): \(message)" }
}
