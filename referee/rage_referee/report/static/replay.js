// The replay viewer: one view's frames (each holding what changed), stepped through.
"use strict";
const RageReplay = {
  views: {},
  view: null,
  states: [],
  at: 0,
  load(data) {
    this.views[data.view] = data;
    this.show(this.view);
  },
  select(view) {
    this.view = view;
    for (const name of new Set(["public", view])) {
      if (!this.views[name]) this.fetch(name);
    }
    this.show(view);
  },
  fetch(view) {
    this.views[view] = null;
    const script = document.createElement("script");
    script.src = document.getElementById("replay").dataset.game + "." + view + ".js";
    script.onerror = () => { document.getElementById("status").textContent = "this view is not available"; };
    document.body.appendChild(script);
  },
  carried(frames) {
    let state = {};
    return frames.map((frame) => {
      const hands = Object.assign({}, state.hands, frame.hands);
      state = Object.assign({}, state, frame, { hands });
      return state;
    });
  },
  show(view) {
    const data = this.views[view];
    const base = data && data.base ? this.views[data.base] : data;
    if (!data || !base || view !== this.view) return;
    const overlay = data === base ? null : this.carried(data.frames);
    this.players = data.players;
    this.states = this.carried(base.frames).map((state, k) => (overlay ? Object.assign({}, state, overlay[k]) : state));
    const slider = document.getElementById("slider");
    slider.max = Math.max(0, this.states.length - 1);
    if (this.wanted) {
      const [round, trick, seat] = this.wanted.split(".").map(Number);
      const found = this.states.findIndex((s) => s.round === round && s.trick === trick && s.seat === seat);
      this.wanted = null;
      if (found >= 0) this.at = found;
    }
    this.summarise(base.game);
    this.go(Math.min(this.at, this.states.length - 1));
  },
  // The game once over: a summary line (ruleset, players, winner, scores), the final scores, every trick.
  summarise(game) {
    if (!game || this.summarised === game) return;
    this.summarised = game;
    const cell = (tag, value, cls) => {
      const node = document.createElement(tag);
      node.textContent = value;
      if (cls) node.className = cls;
      return node;
    };
    const row = (cells) => {
      const tr = document.createElement("tr");
      cells.forEach((c) => tr.appendChild(typeof c === "string" ? cell("td", c) : c));
      return tr;
    };
    const name = (seat) => this.players[seat];
    const seats = this.players.map((_, seat) => seat);
    const winners = seats.filter((seat) => game.places[seat] === 1).map(name);
    const scores = seats.map((seat) => name(seat) + " " + game.totals[seat]).join(", ");
    document.getElementById("game-summary").textContent =
      game.ruleset + "; " + this.players.join(", ") + "; " + (winners.length > 1 ? "winners " : "winner ") +
      winners.join(" and ") + "; scores " + scores;
    const ranked = seats.slice().sort((a, b) => game.places[a] - game.places[b] || a - b);
    document.querySelector("#final-scores tbody").replaceChildren(...ranked.map((seat) => {
      const tr = row([String(game.places[seat]), String(seat), cell("td", name(seat), "name"), String(game.totals[seat])]);
      tr.className = "place" + game.places[seat];
      return tr;
    }));
    document.querySelector("#trick-history tbody").replaceChildren(...game.tricks.map(([round, trick, leader, plays, winner]) => {
      const cards = cell("td", plays.map(([seat, card]) => name(seat) + " " + card).join(", "), "name");
      const tr = row([String(round), String(trick), name(leader), cards, name(winner)]);
      tr.dataset.at = round + "." + trick;
      return tr;
    }));
  },
  go(at) {
    if (!this.states.length) return;
    this.at = Math.max(0, Math.min(this.states.length - 1, at));
    document.getElementById("slider").value = this.at;
    this.render(this.states[this.at]);
  },
  render(s) {
    const text = (tag, value, cls) => {
      const node = document.createElement(tag);
      node.textContent = value;
      if (cls) node.className = cls;
      return node;
    };
    const card = (token) => {
      const colour = /^([roygbp])\d+/.exec(token);
      const wild = /as ([roygbp])/.exec(token);
      return text("span", token, "card " + (colour ? "c-" + colour[1] : wild ? "c-" + wild[1] + " action" : "action"));
    };
    document.getElementById("position").textContent = (this.at + 1) + " / " + this.states.length;
    for (const tr of document.querySelectorAll("#trick-history tbody tr")) {
      tr.classList.toggle("current", tr.dataset.at === s.round + "." + s.trick);
    }
    const status = document.getElementById("status");
    status.replaceChildren(
      text("span", "round " + s.round + " (" + s.cards + " cards)", "round"),
      text("span", s.trick ? "trick " + s.trick : "bidding", "trick"),
      text("span", "trump: ", "trump-label"),
      s.trump ? text("span", {r: "red", o: "orange", y: "yellow", g: "green", b: "blue", p: "purple"}[s.trump], "card c-" + s.trump) : text("span", "none", "trump-none"),
      text("span", "dealer: seat " + s.dealer, "dealer"),
    );
    const decision = document.getElementById("decision");
    decision.replaceChildren(text("span", "seat " + s.seat + " " + this.players[s.seat] + ": ", "who"), card(s.action));
    decision.dataset.seat = s.seat;
    decision.dataset.action = s.action;
    for (const fault of s.faults || []) {
      const mark = text("span", "⚠ " + fault.kind + (fault.fallback ? ", fallback " + fault.fallback : "") +
        (fault.detail ? ": " + fault.detail : ""), "fault");
      decision.appendChild(mark);
    }
    const body = document.querySelector("#board tbody");
    body.replaceChildren();
    this.players.forEach((name, seat) => {
      const row = document.createElement("tr");
      row.dataset.seat = seat;
      if (seat === s.seat) row.className = "acting";
      if (s.winner === seat) row.classList.add("winner");
      row.appendChild(text("td", String(seat)));
      row.appendChild(text("td", name, "name"));
      const bid = s.bids[seat];
      row.appendChild(text("td", bid === null || bid === undefined ? "?" : String(bid), "bid"));
      row.appendChild(text("td", String(s.won[seat])));
      const points = s.points ? " (" + (s.points[seat] >= 0 ? "+" : "") + s.points[seat] + ")" : "";
      row.appendChild(text("td", String(s.totals[seat]) + points, "score"));
      const played = (s.table || []).filter((entry) => entry[0] === seat).map((entry) => entry[1]);
      const table = document.createElement("td");
      table.className = "played";
      played.forEach((token) => table.appendChild(card(token)));
      if (s.winner === seat) table.appendChild(text("span", "wins the trick", "wins"));
      row.appendChild(table);
      const hand = document.createElement("td");
      hand.className = "hand name";
      const cards = (s.hands || {})[String(seat)];
      if (cards) cards.forEach((token) => hand.appendChild(card(token)));
      else hand.appendChild(text("span", (s.sizes ? s.sizes[seat] : "?") + " cards hidden", "hidden"));
      row.appendChild(hand);
      body.appendChild(row);
    });
    const extra = document.getElementById("extra");
    extra.replaceChildren();
    if (s.turned && s.turned.length) {
      extra.appendChild(text("span", "turned up: "));
      s.turned.forEach((token) => extra.appendChild(card(token)));
    }
    if (s.revealed && s.revealed.length) {
      extra.appendChild(text("span", " revealed after the trick: "));
      s.revealed.forEach((token) => extra.appendChild(card(token)));
    }
  },
};

document.addEventListener("DOMContentLoaded", () => {
  const select = document.getElementById("view");
  select.addEventListener("change", () => RageReplay.select(select.value));
  document.getElementById("slider").addEventListener("input", (e) => RageReplay.go(Number(e.target.value)));
  document.getElementById("back").addEventListener("click", () => RageReplay.go(RageReplay.at - 1));
  document.getElementById("forward").addEventListener("click", () => RageReplay.go(RageReplay.at + 1));
  document.getElementById("first").addEventListener("click", () => RageReplay.go(0));
  document.getElementById("last").addEventListener("click", () => RageReplay.go(RageReplay.states.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) { RageReplay.go(RageReplay.at + moves[e.key]); e.preventDefault(); }
    if (e.key === "Home") { RageReplay.go(0); e.preventDefault(); }
    if (e.key === "End") { RageReplay.go(RageReplay.states.length - 1); e.preventDefault(); }
  });
  // #view=1&at=2.4.1 opens seat 1's view at round 2, trick 4 (0: bidding), seat 1's decision.
  const wanted = new URLSearchParams(location.hash.slice(1));
  if ([...select.options].some((option) => option.value === wanted.get("view"))) select.value = wanted.get("view");
  RageReplay.wanted = wanted.get("at");
  RageReplay.select(select.value);
});
