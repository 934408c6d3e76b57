import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Words and shell commands for telling an operator who may use which file: a refusal is only
/// useful when it says what to type.
enum AccessAdvice {
  /// The user this process runs as, by name when it has one: "nobody (uid 65534)".
  static var currentUser: String {
    let uid = geteuid()
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return "\(String(cString: name)) (uid \(uid))"
  }

  static var currentUserName: String {
    guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return String(geteuid()) }
    return String(cString: name)
  }

  /// `path` as one shell word.
  static func quoted(_ path: String) -> String {
    let plain = path.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && (scalar.properties.isAlphabetic || "0123456789/._-+,:@%".unicodeScalars.contains(scalar))
    }
    guard !plain || path.isEmpty else { return path }
    return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// `path` from the root, so that a command quoted with it works from any directory.
  static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let base = String(cString: buffer)
    var relative = Substring(path)
    while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
    return base == "/" ? "/" + relative : base + "/" + relative
  }

  /// What `path` is owned by and its permission bits, for a message: "owned by root, mode 0600".
  static func ownership(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let owner = getpwuid(info.st_uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(info.st_uid)"
    return "owned by \(owner), mode \(octal(info.st_mode & 0o7777))"
  }

  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The commands that give this process's user, and only it, the data directory and its files.
  static func grant(directory: String, files: [String]) -> String {
    let folder = quoted(absolute(directory))
    let names = files.map { quoted(absolute($0)) }.joined(separator: " ")
    return "chown \(currentUserName) \(folder) \(names) && chmod 700 \(folder) && chmod 600 \(names)"
  }

  /// The operating system's words for `code`.
  static func describe(errno code: Int32) -> String {
    String(cString: strerror(code))
  }
}
