import CQRencode

#if canImport(Glibc)
  import Glibc
#endif

/// A QR code's modules, dark or light, row by row, made by libqrencode: the board's join link as
/// something a phone's camera reads. Drawn as SVG for the board and as half blocks for a terminal.
package struct QRMatrix: Sendable, Equatable {
  /// Modules on a side (21 for version 1, 4 more for each version after).
  package let size: Int
  /// `size × size` modules, row by row; true is dark.
  package let modules: [Bool]

  /// The code of `text` (8-bit, error correction M: a smudged screen still reads); nil when
  /// libqrencode cannot encode it (longer than a version 40 code holds).
  package init?(_ text: String) {
    guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
    defer { QRcode_free(code) }
    let size = Int(code.pointee.width)
    // Bit 0 of each byte is the module's colour; the other bits say what kind of module it is.
    let bytes = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
    self.size = size
    self.modules = bytes.map { $0 & 1 == 1 }
  }

  package func isDark(row: Int, column: Int) -> Bool {
    guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
    return modules[row * size + column]
  }

  /// The code as SVG, one path of unit squares and a quiet zone of 4 modules, crisp at any
  /// scale; dark on white whatever the page's colours (a camera needs the contrast).
  package var svg: String {
    let side = size + 8
    var path = ""
    for row in 0..<size {
      for column in 0..<size where isDark(row: row, column: column) {
        path += "M\(column + 4) \(row + 4)h1v1h-1z"
      }
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
      <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

      """
  }

  /// The code for a terminal: two rows of modules a line (`▀`, `▄`, `█`, space), with a quiet
  /// zone of 2 modules, drawn light on dark as terminals are (a dark module is a space).
  package var halfBlocks: String {
    var lines: [String] = []
    for top in stride(from: -2, to: size + 2, by: 2) {
      var line = ""
      for column in -2..<(size + 2) {
        let upper = !isDark(row: top, column: column)
        let lower = !isDark(row: top + 1, column: column) && top + 1 < size + 2
        line += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
