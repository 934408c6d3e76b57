/// The phone page (`/join`): the shop's menu, a button to order each thing as a guest, and the
/// receipt. The frame is here; the script fills it from `/menu`. The page's token, which every
/// order must carry, is the only thing written into it, and it is hex.
enum PhonePage {
  static func html(token: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="stockroom-token" content="\(token)">
    <title>Stockroom — order</title>
    <link rel="stylesheet" href="/board.css">
    <link rel="stylesheet" href="/join.css">
    <script src="/join.js" defer></script>
    </head>
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
