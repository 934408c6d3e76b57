/// Why a password cannot be used. No case carries the password or any part of it, so the
/// message can be shown and logged.
public enum PasswordError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Fewer bytes than `Password.minimumBytes`.
  case tooShort(minimum: Int)
  /// More bytes than `Password.maximumBytes`.
  case tooLong(maximum: Int)
  /// Argon2id could not get its memory (`PasswordCost.memoryMiB`).
  case outOfMemory

  public var description: String {
    switch self {
    case .tooShort(let minimum): "a password needs at least \(minimum) bytes"
    case .tooLong(let maximum): "a password may have at most \(Self.grouped(maximum)) bytes"
    case .outOfMemory: "not enough memory to hash a password; try again when the machine has more free"
    }
  }

  /// 1024 as "1,024", as the documentation writes it, without Foundation.
  private static func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
