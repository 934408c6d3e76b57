import StockroomDomain

/// Why the stored shop cannot be opened, in words an operator can act on: which file, what is
/// wrong with it, and what to do.
public enum StartupDiagnosis {
  public static func message(for error: any Error, file: String) -> String {
    switch error {
    case let error as StorageError:
      return error.description
    case let error as SQLiteError:
      return error.explained(file: file)
    case let error as DamagedRow:
      return
        "\(file) is damaged: a row cannot be read (\(error)). The file was edited or corrupted on disk; restore a "
        + "backup made with `stockroomd backup` (copy it to \(file)), or move the file away to start a new, empty shop"
    default:
      return "\(file): \(error)"
    }
  }
}
