// Live pages: follow the league's events and redraw the page's content when a game finishes.
"use strict";
(() => {
  const url = document.body.dataset.live;
  if (!url) return;
  const status = document.getElementById("live-status");
  const replaying = document.getElementById("replay") !== null;
  let shown = Number(document.getElementById("games-count").textContent.split(" ")[0]);
  let finalShown = 0; // a ladder's final: its games in whole sets, as its last standings event counted them
  let pending = null;
  const refresh = () => {
    pending = null;
    fetch(location.href, { credentials: "same-origin" })
      .then((reply) => reply.text())
      .then((html) => {
        const page = new DOMParser().parseFromString(html, "text/html");
        const count = page.getElementById("games-count");
        const final = page.querySelector("table.final-games");
        const behind = (final ? Number(final.dataset.games) : 0) < finalShown;
        if (((count && Number(count.textContent.split(" ")[0]) < shown) || behind) && pending === null) {
          pending = setTimeout(refresh, 2000); // the server draws newer games in a moment
        }
        for (const id of ["main", "games-count"]) {
          const fresh = page.getElementById(id);
          if (fresh) document.getElementById(id).replaceWith(fresh);
        }
      });
  };
  const games = (done) => {
    if (done === shown) return;
    shown = done;
    if (replaying) {
      document.getElementById("games-count").textContent = done + " games";
    } else if (pending === null) {
      pending = setTimeout(refresh, 300);
    }
  };
  const feed = (line, cls) => {
    const list = document.getElementById("feed");
    if (!list) return;
    const item = document.createElement("li");
    item.textContent = new Date().toLocaleTimeString() + "  " + line;
    if (cls) item.className = cls;
    list.prepend(item);
    while (list.children.length > 12) list.lastChild.remove();
  };
  const source = new EventSource(url);
  // The stream ends with a league over or failed; reconnecting would only be told so again.
  const ended = (league) => {
    if (["finished", "cancelled", "failed"].includes(league)) source.close();
  };
  source.onopen = () => status.classList.remove("stale");
  source.onerror = () => status.classList.add("stale");
  source.addEventListener("hello", (e) => {
    document.body.dataset.following = "yes"; // subscribed: nothing from here on is missed
    const hello = JSON.parse(e.data);
    games(hello.games_done);
    ended(hello.status);
  });
  source.addEventListener("game_finished", (e) => {
    const game = JSON.parse(e.data);
    const seats = game.seats.map((name, k) => name + " " + game.totals[k] + " (" + game.places[k] + ")").join(", ");
    feed((game.final ? "final game " : "game ") + game.game + " finished: " + seats);
    if (!game.final) games(game.games_done);
  });
  source.addEventListener("bot_faulted", (e) => {
    const f = JSON.parse(e.data);
    feed((f.final ? "final game " : "game ") + f.game + ": " + f.bot + " " + f.kind + " (round " + f.round + ", trick " + f.trick + "): " + f.detail, "fault");
  });
  source.addEventListener("final_changed", (e) => {
    finalShown = JSON.parse(e.data).games;
    if (!replaying && pending === null) pending = setTimeout(refresh, 300);
  });
  source.addEventListener("status_changed", (e) => {
    const league = JSON.parse(e.data).status;
    feed("league " + league);
    ended(league);
  });
})();
