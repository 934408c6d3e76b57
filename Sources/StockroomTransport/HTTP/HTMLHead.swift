/// The opening both of stockroomd's pages share, through `</head>`: UTF-8, a phone's viewport,
/// light and dark schemes, and the page's own title and what it loads (served by stockroomd
/// itself: the CSP allows nothing from elsewhere). `title` and `loads` are the pages' own
/// constants, never a client's text.
enum HTMLHead {
  static func html(title: String, loads: [String]) -> String {
    var lines = [
      "<!doctype html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<meta name=\"color-scheme\" content=\"light dark\">", "<title>\(title)</title>",
    ]
    lines += loads
    lines.append("</head>")
    return lines.joined(separator: "\n") + "\n"
  }
}
