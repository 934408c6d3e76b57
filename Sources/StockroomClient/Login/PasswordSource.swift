import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where `-u NAME`'s password comes from: `--password-file`, else `$STOCKROOM_PASSWORD`, else
/// a prompt when stdin is a terminal. Never the command line, where `ps` would show it.
public enum PasswordSource {
  /// `ask` stands in for the terminal prompt in tests; it gets the prompt text.
  public static func password(
    for options: ClientOptions, inputIsTerminal: Bool,
    ask: (String) throws(PasswordError) -> Secret = PasswordPrompt.read
  ) throws(PasswordError) -> Secret {
    let user = options.user ?? ""
    if let path = options.passwordFile { return try read(file: path) }
    if let password = options.password { return password }
    guard inputIsTerminal else { throw .none(user: user) }
    let password = try ask("Password for \(user): ")
    guard !password.isEmpty else { throw .cancelled }
    return password
  }

  /// The file's first line without its line ending. A file group or others may read is
  /// refused: a password that anyone on the machine could have read is no secret.
  public static func read(file path: String) throws(PasswordError) -> Secret {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .unreadable(path: path, reason: Errno.current.description) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .unreadable(path: path, reason: Errno.current.description)
    }
    let permissions = UInt32(info.st_mode) & 0o777
    // Pipes (`--password-file <(pass show shop)`) are the caller's own; only files are checked.
    if (info.st_mode & S_IFMT) == S_IFREG, permissions & 0o077 != 0 {
      throw .exposed(path: path, mode: permissions)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    defer {
      // The buffers held the password; what Swift copies elsewhere is out of reach, these are not.
      for index in bytes.indices { bytes[index] = 0 }
      for index in chunk.indices { chunk[index] = 0 }
    }
    while !bytes.contains(UInt8(ascii: "\n")) && bytes.count < 64 * 1024 {
      let read = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try Syscall.read(fd, into: buffer) }
      }
      let count: Int
      switch read {
      case .success(let got): count = got
      case .failure(let error): throw .unreadable(path: path, reason: error.description)
      }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    // A file written on Windows ends its lines with CR LF.
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard !line.isEmpty else { throw .empty(path: path) }
    return Secret(String(decoding: line, as: UTF8.self))
  }
}
