import Testing

@testable import StockroomSecurity

@Suite(.timeLimit(.minutes(30))) struct PasswordTests {
  @Test func printsNoneOfItsBytes() {
    let password = Password("hunter2hunter2")
    for text in [
      password.description, password.debugDescription, "\(password)", String(describing: password),
      String(reflecting: password), "\([password])",
    ] {
      let shown = text.contains("hunter")
      #expect(!shown, "the password is in its description")
      #expect(text.contains("<password>"))
    }
  }

  @Test func rulesCountBytes() throws {
    #expect(throws: PasswordError.tooShort(minimum: 8)) { try Password(bytes: Array(repeating: 97, count: 7)).check() }
    try Password(bytes: Array(repeating: 97, count: 8)).check()
    try Password(bytes: Array(repeating: 97, count: 1024)).check()
    #expect(throws: PasswordError.tooLong(maximum: 1024)) {
      try Password(bytes: Array(repeating: 97, count: 1025)).check()
    }
    // Four characters, twelve bytes: the rule is in bytes.
    try Password("한국어요").check()
    #expect(Password("한국어요").count == 12)
  }

  @Test func errorMessagesShowNoPassword() {
    for (password, expected) in [("abcdefg", "at least 8 bytes"), (String(repeating: "z", count: 1025), "1,024")] {
      do {
        try Password(password).check()
        Issue.record("\(password.count) bytes were accepted")
      } catch {
        #expect(error.description.contains(expected))
        #expect(!error.description.contains("abcdefg"))
        #expect(!error.description.contains("zzzz"))
      }
    }
  }

  @Test func keepsItsBytesAndComparesThem() {
    let password = Password(bytes: [0, 1, 2, 255, 10, 13])
    #expect(password.count == 6)
    #expect(password.withUnsafeBytes { Array($0) } == [0, 1, 2, 255, 10, 13])
    [UInt8]([0, 1, 2, 255, 10, 13]).withUnsafeBytes { #expect(Password(copying: $0).matches(password)) }
    #expect(!password.matches(Password(bytes: [0, 1, 2, 255, 10, 14])))
    #expect(!password.matches(Password(bytes: [0, 1, 2])))
    #expect(Password("").matches(Password(bytes: [])))
  }
}
