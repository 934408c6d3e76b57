/// The phone page (`/join`): the shop's menu, a button to order each thing as a guest, and the
/// receipt. The frame is here; the script fills it from `/menu`. The page's token, which every
/// order must carry, is the only thing written into it, and it is hex.
enum PhonePage {
  static func html(token: String) -> String {
    let head = HTMLHead.html(
      title: "Stockroom — order",
      loads: [
        "<meta name=\"stockroom-token\" content=\"\(token)\">", "<link rel=\"stylesheet\" href=\"/board.css\">",
        "<link rel=\"stylesheet\" href=\"/join.css\">", "<script src=\"/join.js\" defer></script>",
      ])
    return head + """
      <body class="phone">
      <header>
        <h1>Stockroom</h1>
        <a class="wall" href="/">the board</a>
      </header>
      <p class="hint">Tap to order one, as a guest. Your order shows on the board.</p>
      <section id="receipt" class="receipt" aria-live="polite" hidden></section>
      <div id="menu" class="menu" aria-label="menu"><p class="hint">loading the menu…</p></div>
      </body>
      </html>

      """
  }
}
