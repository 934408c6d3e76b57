/// The phone page's script: draws the menu from `/menu`, orders with one tap (`POST /order`, the
/// page's token and a key made for the tap: a second tap while the first is under way does
/// nothing, and a retry after a lost answer sends the same key, so it orders once), and shows
/// the receipt or the shortage. Names reach the page only as text, never as markup.
enum PhoneScript {
  static let javascript = #"""
    "use strict";
    const token = document.querySelector('meta[name="stockroom-token"]').content;
    const byId = (id) => document.getElementById(id);
    // The key of a tap whose answer has not come, by item: sent again until one does.
    const unanswered = new Map();

    function element(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    }

    // 128 random bits; crypto.getRandomValues works on a plain-HTTP page, randomUUID does not.
    function newKey() {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    }

    function price(item) {
      const node = element("span", "price");
      if (item.final) {
        node.append(element("span", "was", item.price), item.final, element("span", "off", item.discount));
      } else {
        node.textContent = item.price;
      }
      return node;
    }

    function dish(item) {
      const row = element("div", "dish");
      row.dataset.item = item.id;
      row.append(element("span", "name", item.name));
      if (item.recipe) {
        row.append(element("span", "about", item.recipe.map((part) => part.name + " ×" + part.count).join(", ")));
      } else {
        row.append(price(item));
        if (item.description) row.append(element("span", "about", item.description));
      }
      const button = element("button", null, item.available > 0 ? "Order" : "Sold out");
      button.type = "button";
      button.disabled = item.available <= 0;
      button.addEventListener("click", () => order(item, button));
      row.append(button);
      return row;
    }

    async function loadMenu() {
      const reply = await fetch("/menu", { cache: "no-store" });
      const menu = await reply.json();
      const box = byId("menu");
      box.replaceChildren();
      for (const section of menu.sections) {
        const part = element("section", "section");
        part.dataset.section = section.id;
        part.append(element("h2", null, section.name));
        for (const item of section.items) part.append(dish(item));
        box.append(part);
      }
      document.body.dataset.menu = "ready";
    }

    function list(lines) {
      const node = element("ul");
      for (const line of lines) node.append(element("li", null, line));
      return node;
    }

    function showReceipt(answer) {
      const box = byId("receipt");
      box.replaceChildren();
      box.hidden = false;
      if (answer.ok) {
        box.dataset.state = "ordered";
        box.append(element("h2", null, "Order #" + answer.order));
        box.append(list(answer.lines.map((line) => line.name + " ×" + line.quantity + (line.subtotal ? " " + line.subtotal : ""))));
        const took = answer.took.filter((part) => !answer.lines.some((line) => line.item === part.item));
        if (took.length) {
          box.append(element("p", "took", "Made from:"));
          box.append(list(took.map((part) => part.name + " ×" + part.count + " (" + part.left + " left)")));
        }
        if (answer.total) box.append(element("p", "total", "Total " + answer.total));
      } else {
        box.dataset.state = "refused";
        box.append(element("h2", null, answer.code === "SHORTAGE" ? "Not enough stock, nothing taken" : "Not ordered"));
        if (answer.short && answer.short.length) {
          box.append(list(answer.short.map((part) => part.name + ": needs " + part.needed + ", has " + part.available)));
        } else {
          box.append(element("p", "why", answer.message));
        }
      }
      box.scrollIntoView({ block: "nearest" });
    }

    async function order(item, button) {
      if (button.dataset.busy) return;
      button.dataset.busy = "true";
      const key = unanswered.get(item.id) || newKey();
      unanswered.set(item.id, key);
      try {
        const reply = await fetch("/order", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token: token, key: key, item: item.id, quantity: 1 }),
        });
        const answer = await reply.json();
        unanswered.delete(item.id);
        showReceipt(answer);
        await loadMenu();
      } catch (error) {
        showReceipt({ ok: false, message: "no answer from the shop; tap again to retry the same order" });
      } finally {
        delete button.dataset.busy;
      }
    }

    loadMenu().catch(() => showReceipt({ ok: false, message: "the menu could not be loaded; reload the page" }));

    """#
}
