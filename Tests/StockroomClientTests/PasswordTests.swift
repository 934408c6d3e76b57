import Foundation
import StockroomProtocol
import Testing

@testable import StockroomClient

/// Where `-u NAME`'s password comes from, and that it shows nowhere it should not.
@Suite("Passwords for -u: file, environment, prompt, and nowhere else", .timeLimit(.minutes(30)))
struct PasswordTests {
  /// A made-up password; tests compare against it and never print it.
  private static let password = "correct horse 7"

  private static func options(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ClientOptions {
    guard case .run(let options) = try ClientOptions.parse(arguments, environment: environment) else {
      throw ClientProcess.Missing(description: "expected options to run with")
    }
    return options
  }

  /// A file in a folder of its own with these contents and permissions.
  private static func file(_ contents: String, mode: Int = 0o600) throws -> (path: String, folder: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-pw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("password").path
    _ = FileManager.default.createFile(
      atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: mode])
    return (path, folder)
  }

  @Test("-u, $STOCKROOM_USER, --password-file and $STOCKROOM_PASSWORD are read; a file needs a user")
  func parsing() throws {
    let flags = try Self.options(["-u", "alice", "--password-file", "/tmp/pw", "DIARY", "LIST"])
    #expect(flags.user == "alice")
    #expect(flags.passwordFile == "/tmp/pw")
    #expect(flags.password == nil)
    #expect(flags.command == ["DIARY", "LIST"])
    let environment = try Self.options([], ["STOCKROOM_USER": "민지", "STOCKROOM_PASSWORD": Self.password])
    #expect(environment.user == "민지")
    #expect(environment.password == Secret(Self.password))
    // The flag wins over the environment's user.
    #expect(try Self.options(["-u", "bob"], ["STOCKROOM_USER": "alice"]).user == "bob")
    #expect(try Self.options([], ["STOCKROOM_PASSWORD": ""]).password == nil)
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["--password-file", "/tmp/pw"]) }
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["-u", "alice", "--password-file"]) }
    #expect(ClientOptions.usage.contains("--password-file FILE"))
    #expect(ClientOptions.usage.contains("STOCKROOM_PASSWORD"))
  }

  @Test("the password never shows when options, secrets or credentials are printed")
  func redacted() throws {
    let options = try Self.options(["-u", "alice"], ["STOCKROOM_PASSWORD": Self.password])
    let credentials = Credentials(name: "alice", password: Secret(Self.password))
    var dumped = ""
    dump(options, to: &dumped)
    for (index, text) in [
      "\(options)", String(reflecting: options), "\(credentials)", String(reflecting: credentials), dumped,
    ]
    .enumerated() {
      // A boolean, so a failure does not print the text with the password in it.
      let leaked = text.contains("horse")
      #expect(!leaked, "a password leaked into description \(index)")
    }
    #expect("\(Secret(Self.password))" == "<secret>")
  }

  @Test("LOGIN quotes a password with spaces, quotes or = as one word")
  func loginLine() throws {
    for secret in [Self.password, "a=b", "say \"hi\"", "탁자"] {
      let line = Credentials(name: "민지 kim", password: Secret(secret)).loginLine
      let words = try Tokenizer.words(in: line)
      let readBack = words.map(\.text) == ["LOGIN", "민지 kim", secret] && words.allSatisfy { !$0.isOption }
      #expect(readBack, "a password did not come back as one positional word")
    }
  }

  @Test("the file's first line is the password; the file wins over the environment")
  func fromFile() throws {
    let (path, folder) = try Self.file(Self.password + "\nsecond line\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = try Self.options(["-u", "alice", "--password-file", path], ["STOCKROOM_PASSWORD": "other"])
    let read = try PasswordSource.password(for: options, inputIsTerminal: true) { _ throws(PasswordError) in
      Issue.record("asked although a file was given")
      return Secret("")
    }
    #expect(read == Secret(Self.password))
    let (windows, windowsFolder) = try Self.file(Self.password + "\r\n")
    defer { try? FileManager.default.removeItem(at: windowsFolder) }
    #expect(try PasswordSource.read(file: windows) == Secret(Self.password))
    let (bare, bareFolder) = try Self.file(Self.password)
    defer { try? FileManager.default.removeItem(at: bareFolder) }
    #expect(try PasswordSource.read(file: bare) == Secret(Self.password))
    options.passwordFile = nil
    #expect(try PasswordSource.password(for: options, inputIsTerminal: false) == Secret("other"))
  }

  @Test("a file others may read is refused, an empty or missing one too, each saying why")
  func badFiles() throws {
    let (open, openFolder) = try Self.file(Self.password + "\n", mode: 0o644)
    defer { try? FileManager.default.removeItem(at: openFolder) }
    #expect(throws: PasswordError.exposed(path: open, mode: 0o644)) { try PasswordSource.read(file: open) }
    #expect(PasswordError.exposed(path: open, mode: 0o644).description.contains("chmod 600"))
    let (group, groupFolder) = try Self.file(Self.password + "\n", mode: 0o640)
    defer { try? FileManager.default.removeItem(at: groupFolder) }
    #expect(throws: PasswordError.exposed(path: group, mode: 0o640)) { try PasswordSource.read(file: group) }
    let (empty, emptyFolder) = try Self.file("\nnot the first line\n")
    defer { try? FileManager.default.removeItem(at: emptyFolder) }
    #expect(throws: PasswordError.empty(path: empty)) { try PasswordSource.read(file: empty) }
    #expect(throws: PasswordError.self) { try PasswordSource.read(file: "/nonexistent/stockroom-password") }
  }

  @Test("with no file and no environment: asked on a terminal, else an error that says how to give one")
  func promptOrError() throws {
    let options = try Self.options(["-u", "alice"])
    var asked: [String] = []
    let answer = try PasswordSource.password(for: options, inputIsTerminal: true) { prompt throws(PasswordError) in
      asked.append(prompt)
      return Secret(Self.password)
    }
    #expect(answer == Secret(Self.password))
    #expect(asked == ["Password for alice: "])
    #expect(throws: PasswordError.none(user: "alice")) {
      try PasswordSource.password(for: options, inputIsTerminal: false)
    }
    let message = PasswordError.none(user: "alice").description
    #expect(message.contains("--password-file") && message.contains("STOCKROOM_PASSWORD"))
    // Enter on an empty prompt sends no empty password.
    #expect(throws: PasswordError.cancelled) {
      try PasswordSource.password(for: options, inputIsTerminal: true) { _ throws(PasswordError) in Secret("") }
    }
  }

  @Test("stockroom -u with stdin not a terminal and no password exits 2 before connecting")
  func noPasswordExits2() throws {
    // Port 1: nothing listens there, so exit 2 for "unreachable" would say so on stderr instead.
    let result = try ClientProcess.run(["-p", "1", "-u", "alice", "PING"])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("-u alice needs a password"), "\(result.error)")
    #expect(!result.error.contains("cannot connect"))
    let piped = try ClientProcess.run(["-p", "1", "-u", "alice"], input: "PING\n")
    #expect(piped.status == 2)
    #expect(piped.error.contains("STOCKROOM_PASSWORD"))
    let (path, folder) = try Self.file(Self.password + "\n", mode: 0o604)
    defer { try? FileManager.default.removeItem(at: folder) }
    let exposed = try ClientProcess.run(["-p", "1", "-u", "alice", "--password-file", path, "PING"])
    #expect(exposed.status == 2)
    #expect(exposed.error.contains("chmod 600"))
  }

  @Test("the identity a reply names: LOGIN, REGISTER, WHOAMI and HELLO; guests and errors name nobody")
  func identities() throws {
    func reply(_ line: String) throws -> Reply {
      var reader = ReplyReader()
      guard case .reply(let reply)? = reader.feed(line) else {
        throw ClientProcess.Missing(description: "no reply from \(line)")
      }
      return reply
    }
    let alice = Identity(name: "alice", role: .customer)
    #expect(Identity(reply: try reply("OK login alice role=customer"), command: "LOGIN") == alice)
    #expect(Identity(reply: try reply("OK login alice role=customer"), command: "register") == alice)
    #expect(
      Identity(reply: try reply("OK \"민지 kim\" role=staff"), command: "WHOAMI") == .init(name: "민지 kim", role: .staff))
    #expect(
      Identity(reply: try reply("OK hello protocol=2 user=bob role=admin"), command: "HELLO")
        == .init(name: "bob", role: .admin))
    #expect(Identity(reply: try reply("OK guest role=guest"), command: "WHOAMI") == nil)
    #expect(Identity(reply: try reply("OK hello protocol=2 user=guest role=guest"), command: "HELLO") == nil)
    #expect(Identity(reply: try reply("ERR AUTH wrong name or password"), command: "LOGIN") == nil)
  }
}
