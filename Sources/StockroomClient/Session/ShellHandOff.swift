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

  /// `text` through `command`, for `:watch … | COMMAND`: what the command printed, stdout and
  /// stderr as watch(1) shows them, with its exit status when not 0; the sentence saying why
  /// when it could not run. The output goes to an unlinked file, not a pipe, so a command
  /// that prints more than a pipe holds before reading all of its input cannot stall us.
  func filter(_ text: String, through command: String) -> Result<String, Refusal> {
    var template = Array("/tmp/stockroom-watch-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      return .failure(Refusal(description: "cannot make a file for '\(command)': \(Errno.current)"))
    }
    defer { close(fd) }
    // The client has one thread, so nothing can spawn before this; the child gets it by dup2.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    let status = ChildProcess.whileForeground { () -> Int32? in
      guard let child = try? ChildProcess.shell(command, pipeInput: true, shell: shell, output: fd) else { return nil }
      child.feed(text)
      return child.wait()
    }
    guard let status else { return .failure(Refusal(description: "cannot start \(shell) for '\(command)'")) }
    var printed: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var offset: off_t = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      printed += chunk[..<count]
      offset += off_t(count)
    }
    let output = String(decoding: printed, as: UTF8.self)
    return .success(status == 0 ? output : output + "exit status \(status)\n")
  }

  /// Why a hand-off could not be made.
  struct Refusal: Error, CustomStringConvertible {
    var description: String
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
