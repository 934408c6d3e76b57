/// What is wrong with an option's value, said without the option's name (the caller knows how it
/// was spelled: `--loops` on the command line, `loops` on line 7 of the file), e.g. "takes a whole
/// number from 1 to 256, not '0'".
public struct OptionProblem: Error, Sendable, Equatable {
  public var message: String

  public init(_ message: String) { self.message = message }
}
