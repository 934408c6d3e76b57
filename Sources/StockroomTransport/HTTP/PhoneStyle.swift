/// The phone page's own style, on top of the board's (its colours, fonts and dark mode): one
/// column, buttons a thumb hits, the receipt above the menu.
enum PhoneStyle {
  static let css = """
    body.phone { max-width: 40rem; margin: 0 auto; font-size: 16px; }
    .phone header { justify-content: space-between; }
    .phone .wall { color: var(--muted); }
    .hint { color: var(--muted); margin: 0.4rem 0; }
    .menu h2 { border-bottom: 2px solid var(--line); padding-bottom: 0.1rem; margin-top: 1rem; }
    .dish { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.2rem 0.8rem; align-items: center;
      padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
    .dish .name { font-weight: 600; overflow-wrap: anywhere; }
    .dish .about { grid-column: 1; color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
    .dish .price { font-variant-numeric: tabular-nums; }
    .dish .was { text-decoration: line-through; color: var(--muted); margin-right: 0.3rem; }
    .dish .off { color: var(--out); font-weight: 700; margin-left: 0.3rem; }
    .dish button { grid-column: 2; grid-row: 1 / span 3; min-width: 5.5rem; min-height: 2.8rem; font-size: 1rem;
      border-radius: 0.5rem; border: 0; background: var(--full); color: #fff; font-weight: 700; }
    .dish button:disabled { background: var(--track); color: var(--muted); }
    .receipt { background: var(--card); border: 2px solid var(--full); border-radius: 0.6rem; padding: 0.6rem 0.9rem;
      margin: 0.6rem 0; }
    .receipt[hidden] { display: none; }
    .receipt[data-state="refused"] { border-color: var(--out); }
    .receipt h2 { margin: 0 0 0.3rem; }
    .receipt ul { margin: 0.2rem 0; padding-left: 1.2rem; }
    .receipt .total { font-weight: 700; }

    """
}
