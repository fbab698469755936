// Live pages: follow the league's events and redraw the page's content when a game finishes.
"use strict";
(() => {
  const url = document.body.dataset.live;
  if (!url) return;
  const status = document.getElementById("live-status");
  const replaying = document.getElementById("replay") !== null;
  let shown = Number(document.getElementById("games-count").textContent.split(" ")[0]);
  let pending = null;
  const refresh = () => {
    pending = null;
    fetch(location.href, { credentials: "same-origin" })
      .then((reply) => reply.text())
      .then((html) => {
        const page = new DOMParser().parseFromString(html, "text/html");
        const count = page.getElementById("games-count");
        if (count && Number(count.textContent.split(" ")[0]) < shown && pending === null) {
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
  const source = new EventSource(url);
  source.onopen = () => status.classList.remove("stale");
  source.onerror = () => status.classList.add("stale");
  source.addEventListener("hello", (e) => games(JSON.parse(e.data).games_done));
  source.addEventListener("game_finished", (e) => games(JSON.parse(e.data).games_done));
})();
