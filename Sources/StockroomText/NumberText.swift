/// Numbers written for people: `48,130,300`.
public enum NumberText {
  public static func grouped(_ value: Int) -> String {
    value < 0 ? "-" + grouped(String(value.magnitude)) : grouped(String(value))
  }

  /// Groups a string of ASCII digits in threes.
  public static func grouped(_ digits: String) -> String {
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }
}
