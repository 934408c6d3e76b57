import Foundation

/// How `stockroom-bench` and its subcommands speak on their command line when things are not
/// measured: warnings on standard error, and options either parsed or the program ended the
/// sysexits way (0 after --help's usage, 64 for bad input).
enum CommandLineExit {
  static func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// What `parse` read; when it returns nil (--help), prints `usage` and exits 0; when it
  /// throws, warns with `complaint`'s words for the error and exits 64.
  static func parsedOrExit<Options>(
    usage: String, parse: () throws -> Options?, complaint: (any Error) -> String
  ) -> Options {
    do {
      guard let parsed = try parse() else {
        print(usage)
        exit(0)
      }
      return parsed
    } catch {
      warn(complaint(error))
      exit(64)
    }
  }
}
