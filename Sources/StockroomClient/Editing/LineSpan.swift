/// A run of the line being typed and the style it is drawn in; nil draws it plain. The runs
/// of a line, joined, are the line exactly.
struct LineSpan: Sendable, Equatable {
  var text: String
  var style: LineStyle?

  init(_ text: String, _ style: LineStyle? = nil) {
    self.text = text
    self.style = style
  }
}
