import Foundation
import StockroomSystem

/// What the REPL hands to the user's shell or a file: `:!COMMAND` on the terminal, a reply into
/// `| COMMAND`, a reply into `> FILE` or `>> FILE`. Each answers nil when all went well, else the
/// sentence to print; the REPL goes on either way.
struct ShellHandOff {
  /// How a hand-off to `| COMMAND` or `> FILE` went.
  enum Delivery: Equatable {
    case delivered
    /// The pipe's command ran and ended with this status, not 0.
    case exited(Int32)
    /// Nothing was handed off: the sentence says why.
    case failed(String)
  }

  /// `$SHELL`, else `/bin/sh`.
  var shell: String
  /// For `~/` at the start of a file name.
  var home: String?

  init(environment: [String: String]) {
    shell = ChildProcess.userShell(environment: environment)
    home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// `:!COMMAND`: the command on the terminal, Ctrl-C its own; `:!` alone starts the shell.
  /// A status other than 0 is said, as a shell prompt would show it.
  func run(_ command: String) -> String? {
    let status = ChildProcess.whileForeground { () -> Int32? in
      let child =
        command.isEmpty
        ? try? ChildProcess.interactive(shell) : try? ChildProcess.shell(command, pipeInput: false, shell: shell)
      return child?.wait()
    }
    guard let status else { return "cannot start \(shell)" }
    return status == 0 ? nil : "exit status \(status)"
  }

  /// The reply's text, as the screen would have shown it without colour, to its target.
  func deliver(_ text: String, to target: OutputRedirect.Target) -> Delivery {
    switch target {
    case .pipe(let command):
      let status = ChildProcess.whileForeground { () -> Int32? in
        guard let child = try? ChildProcess.shell(command, pipeInput: true, shell: shell) else { return nil }
        child.feed(text)
        return child.wait()
      }
      guard let status else { return .failed("cannot start \(shell) for '\(command)'") }
      return status == 0 ? .delivered : .exited(status)
    case .file(let name, let append):
      return write(text, to: expanded(name), append: append).map { .failed($0) } ?? .delivered
    }
  }

  private func expanded(_ name: String) -> String {
    guard name.hasPrefix("~/"), let home else { return name }
    return home + name.dropFirst()
  }

  private func write(_ text: String, to path: String, append: Bool) -> String? {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
    let fd = open(path, flags, 0o644)
    guard fd >= 0 else { return "cannot write \(path): \(Errno.current)" }
    defer { close(fd) }
    do {
      try Array(text.utf8).withUnsafeBytes { all in
        var offset = 0
        while offset < all.count { offset += try Syscall.write(fd, UnsafeRawBufferPointer(rebasing: all[offset...])) }
      }
    } catch {
      return "cannot write \(path): \(error)"
    }
    return nil
  }
}
