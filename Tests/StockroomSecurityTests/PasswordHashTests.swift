import Testing

@testable import StockroomSecurity

@Suite(.timeLimit(.minutes(30))) struct PasswordHashTests {
  /// The number after `name=` in a PHC string's parameters (`$m=65536,t=2,p=1$`).
  private func parameter(_ name: String, in hash: String) -> Int? {
    let fields = hash.split(separator: "$")
    guard fields.count >= 4 else { return nil }
    for pair in fields[2].split(separator: ",") where pair.hasPrefix("\(name)=") {
      return Int(pair.dropFirst(name.count + 1))
    }
    return nil
  }

  @Test func hashIsArgon2idWithAtLeastTheInteractiveLimits() throws {
    let hash = try PasswordHash.make(Password("correct horse battery"))
    #expect(hash.hasPrefix("$argon2id$v=19$"))
    // m= is in KiB: 64 MiB is 65536; t= is the passes; libsodium's interactive limits are these.
    let memory = try #require(parameter("m", in: hash))
    let passes = try #require(parameter("t", in: hash))
    #expect(memory * 1024 >= 64 * 1024 * 1024)
    #expect(passes >= 2)
    #expect(memory == PasswordCost.interactive.memoryMiB * 1024)
    #expect(passes == PasswordCost.interactive.passes)
    #expect(PasswordCost.interactive == PasswordCost(memoryMiB: 64, passes: 2))
    #expect(!PasswordCost.interactive.isBelowInteractive)
  }

  @Test("a hash is made at the cost asked, records it, and verifies under any other")
  func costIsTheOneAsked() throws {
    let cheap = try PasswordHash.make(Password("correct horse battery"), cost: .least)
    #expect(parameter("m", in: cheap) == 1024 && parameter("t", in: cheap) == 1)
    let other = try PasswordHash.make(Password("correct horse battery"), cost: PasswordCost(memoryMiB: 3, passes: 2))
    #expect(parameter("m", in: other) == 3 * 1024 && parameter("t", in: other) == 2)
    #expect(PasswordHash.verify(cheap, Password("correct horse battery")))
    #expect(PasswordHash.verify(other, Password("correct horse battery")))
    #expect(!PasswordHash.verify(cheap, Password("correct horse batterY")))
    #expect(PasswordCost.least.isBelowInteractive)
    #expect(PasswordCost(memoryMiB: 64, passes: 1).isBelowInteractive)
  }

  @Test func verifiesTheRightPasswordOnly() throws {
    let hash = try PasswordHash.make(Password("correct horse battery"))
    #expect(PasswordHash.verify(hash, Password("correct horse battery")))
    #expect(!PasswordHash.verify(hash, Password("correct horse batterY")))
    #expect(!PasswordHash.verify(hash, Password("correct horse battery ")))
    #expect(!PasswordHash.verify(hash, Password("")))
  }

  @Test func saltsDiffer() throws {
    let password = Password("the same password")
    #expect(try PasswordHash.make(password) != PasswordHash.make(password))
  }

  @Test func notAHashNeverVerifies() {
    let password = Password("anything at all")
    for text in ["", "password", "$argon2id$", String(repeating: "$", count: 300)] {
      #expect(!PasswordHash.verify(text, password))
    }
  }

  @Test(arguments: [PasswordCost.interactive, .least])
  func decoyIsOneHashThatNoCommonPasswordOpens(cost: PasswordCost) throws {
    let decoy = PasswordHash.decoy(cost)
    #expect(decoy.hasPrefix("$argon2id$"))
    #expect(PasswordHash.decoy(cost) == decoy, "one decoy per cost, made once")
    // Made with the server's cost, so checking a password against it costs what a real
    // account's check does, and a wrong name cannot be told from a wrong password by time.
    let account = try PasswordHash.make(Password("an account's password"), cost: cost)
    for name in ["m", "t", "p"] {
      #expect(parameter(name, in: decoy) == parameter(name, in: account), "\(name)")
    }
    for common in ["", "password", "12345678", "guest", "admin", "letmein1", "qwertyuiop"] {
      #expect(!PasswordHash.verify(decoy, Password(common)))
    }
  }

  @Test func makeRefusesWhatTheRulesRefuse() {
    #expect(throws: PasswordError.tooShort(minimum: 8)) { try PasswordHash.make(Password("short")) }
  }
}
