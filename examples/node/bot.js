#!/usr/bin/env node
// A Rage bot in Node.js, written from proto/ and proto/README.md alone.
//
// It bids the sum of its cards' chances to take a trick, then plays to make its bid: while short
// of it, it wins the trick as cheaply as it can (or leads its strongest card); once the bid is
// made, it plays its highest card that does not win, sheds a minus5 on a trick it loses and keeps
// a plus5 for a trick it wins.
//
//     npm ci && node bot.js --port 50051        (the referee launches it as: node bot.js --port N)
//     node bot.js --listen unix:/run/rage/bot.sock   (on a Unix socket: how a sandboxed bot is launched)
//     rage bot check "node examples/node/bot.js"

"use strict";

const path = require("path");
const fs = require("fs");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_DIR = process.env.RAGE_PROTO_DIR || path.join(__dirname, "..", "..", "proto");
const LOAD_OPTIONS = {
  keepCase: true, // field names as in the .proto files
  longs: String, // uint64 game ids as strings: a JavaScript number loses precision above 2^53
  enums: Number,
  defaults: true, // absent repeated fields as [], absent messages as null
  oneofs: true, // Event.kind names the event that is set
  includeDirs: [PROTO_DIR],
};
const loaded = grpc.loadPackageDefinition(
  protoLoader.loadSync(["rage/v1/bot.proto", "grpc/health/v1/health.proto"], LOAD_OPTIONS),
);
const BotService = loaded.rage.v1.Bot.service;
const HealthService = loaded.grpc.health.v1.Health.service;

const NAME = "node-heuristic";
const VERSION = "1.0.0";
const PROTOCOL_VERSION = 1;
const BID = 1;
const SERVING = 1;

// ------------------------------------------------------------------ cards and play codes
const WILD = 96, NOTRUMP = 97, CHANGE = 98, PLUS5 = 99, MINUS5 = 100;

/** What a play code stands for: its card, and the colour and value it counts as in a trick. */
function decode(code) {
  if (code < 96) return { card: code, colour: code >> 4, value: code & 15 };
  if (code >= 113) return { card: WILD, colour: (code - 113) >> 4, value: (code - 113) & 15, declared: true };
  if (code >= 107) return { card: WILD, colour: code - 107, value: 16 };
  if (code >= 101) return { card: CHANGE, colour: -1, names: code - 101 };
  return { card: code, colour: -1 };
}

const isColoured = (play) => play.card < 96 || play.card === WILD;

/** The index in `plays` (play codes in order) of the play winning the trick now (rules: Who wins a trick). */
function winnerIndex(plays, trump, lead, rules) {
  let best = -1, bestPlay = null;
  const decoded = plays.map(decode);
  const trumped = trump >= 0 && decoded.some((p) => isColoured(p) && p.colour === trump);
  const colour = trumped ? trump : lead;
  decoded.forEach((p, i) => {
    if (!isColoured(p) || p.colour !== colour) return;
    if (bestPlay === null || p.value > bestPlay.value) {
      best = i, bestPlay = p;
    } else if (p.value === bestPlay.value && p.card === WILD && bestPlay.card === WILD) {
      // Two wilds of one colour: wild_tie, unless they declare values (then the earlier wins).
      if (!rules.wild_declares_value && rules.wild_tie === "later_wins") best = i, bestPlay = p;
    }
  });
  return best < 0 ? 0 : best;
}

/** The trump and lead colour after `code` is played, as far as the bot can tell. */
function after(code, trump, lead, rules) {
  const p = decode(code);
  if (lead < 0 && isColoured(p)) lead = p.colour;
  if (p.card === NOTRUMP) trump = -1;
  if (p.card === CHANGE && p.names !== undefined) trump = p.names;
  return { trump, lead };
}

// ------------------------------------------------------------------ deciding
/** A rough chance that card `id` takes a trick at a table of `players` under `trump`. */
function winChance(id, trump, players) {
  if (id === WILD) return 0.85;
  if (id >= 96) return 0.03;
  const colour = id >> 4, value = id & 15;
  const crowd = Math.max(1, (players - 1) / 2);
  if (trump >= 0 && colour === trump) return 0.3 + 0.7 * Math.pow(value / 15, crowd);
  const high = Math.max(0, (value - 8) / 7);
  return (high * high * (trump >= 0 ? 0.7 : 0.9)) / Math.sqrt(crowd);
}

function chooseBid(view, legal) {
  const players = view.hand_sizes.length;
  const expected = view.hand.reduce((sum, id) => sum + winChance(id, view.trump, players), 0);
  const want = Math.round(expected);
  return legal.reduce((best, bid) => (Math.abs(bid - want) < Math.abs(best - want) ? bid : best), legal[0]);
}

/** What playing `code` costs the hand: high trumps and wilds are worth keeping. */
function cost(code, trump) {
  const p = decode(code);
  if (p.card === WILD) return 40;
  if (p.card >= 96) return p.card === PLUS5 ? 30 : 0;
  return p.value + (p.colour === trump ? 16 : 0);
}

function choosePlay(view, legal, rules) {
  const mine = view.seat;
  const need = (view.bids[mine] >= 0 ? view.bids[mine] : 0) - view.tricks_won[mine];
  const players = view.hand_sizes.length;
  const position = view.trick_plays.length; // my index in the trick
  const last = position === players - 1;
  const options = legal.map((code) => {
    const { trump, lead } = after(code, view.trump, view.lead, rules);
    const plays = [...view.trick_plays, code];
    const wins = winnerIndex(plays, trump, lead, rules) === position;
    return { code, wins, cost: cost(code, view.trump), card: decode(code).card };
  });
  const cheapest = (list) => list.reduce((a, b) => (b.cost < a.cost ? b : a));
  const dearest = (list) => list.reduce((a, b) => (b.cost > a.cost ? b : a));
  const without = (list, card) => (list.some((o) => o.card !== card) ? list.filter((o) => o.card !== card) : list);
  const winning = options.filter((o) => o.wins);
  const losing = options.filter((o) => !o.wins);
  const plus = winning.filter((o) => o.card === PLUS5);
  const minus = losing.filter((o) => o.card === MINUS5);
  if (need > 0) {
    if (position === 0) return dearest(options).code; // lead the strongest card
    if (plus.length && last) return plus[0].code; // a trick surely won: bank the plus5
    if (winning.length) return cheapest(without(winning, PLUS5)).code;
    return (minus.length ? minus[0] : cheapest(without(losing, PLUS5))).code;
  }
  // The bid is made: lose the trick, with a minus5 or the highest card that loses.
  if (losing.length) return (minus.length && position > 0 ? minus[0] : dearest(without(losing, PLUS5))).code;
  return cheapest(options).code;
}

// ------------------------------------------------------------------ the protocol
function log(line) {
  process.stderr.write(line + "\n");
}

/** One Play stream: the games it carries, by game id (a string). */
function play(call) {
  const games = new Map();
  call.on("data", (batch) => {
    const decisions = [];
    for (const message of batch.messages) {
      const id = message.game;
      if (message.start) {
        const start = message.start;
        // The referee sends every option resolved; an older referee sent a preset name or overrides only.
        const parsed = JSON.parse(start.ruleset);
        const rules = typeof parsed === "string" ? { preset: parsed } : parsed;
        games.set(id, { seat: start.seat, rules });
        const index = String(start.index).padStart(5, "0");
        log(`--- game ${start.index} (record game-${index}.json, id ${id}), seat ${start.seat} of ${start.players.length}, ${rules.preset}`);
      }
      const game = games.get(id);
      if (message.request) {
        const request = message.request;
        const decision = { game: id, seq: request.seq };
        try {
          if (!game) throw new Error(`unknown game ${id}`);
          decision.action =
            request.kind === BID ? chooseBid(request.view, request.legal) : choosePlay(request.view, request.legal, game.rules);
        } catch (error) {
          log(`bot error in game ${id}, decision ${request.seq}: ${error.stack}`);
          decision.error = String(error.message).slice(0, 500);
        }
        decisions.push(decision);
      } else if (message.end) {
        games.delete(id);
      }
    }
    if (decisions.length) call.write({ decisions });
  });
  call.on("end", () => call.end());
  call.on("error", () => {}); // the referee went away; the stream is over
}

function hello(call, callback) {
  log(`=== ${new Date().toISOString()}: ${JSON.stringify(call.request.referee.slice(0, 80))} connected`);
  callback(null, { name: NAME, version: VERSION, protocol_version: PROTOCOL_VERSION });
}

const SERVICES = new Set(["", "rage.v1.Bot"]);

function check(call, callback) {
  if (SERVICES.has(call.request.service)) callback(null, { status: SERVING });
  else callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
}

function watch(call) {
  call.write({ status: SERVICES.has(call.request.service) ? SERVING : 3 });
}

// ------------------------------------------------------------------ the referee that launched us
/** Whether the referee `pid` has exited; a zombie (exited, not reaped) still passes kill(pid, 0). */
function refereeGone(pid, launchedDirectly) {
  if (launchedDirectly) return process.ppid !== pid; // an orphan gets a new parent at once
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "ESRCH";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const listen = option("--listen", null); // unix:PATH, instead of a TCP port
  if (listen !== null && !/^unix:.+/.test(listen)) {
    log(`--listen: expected unix:PATH, not ${JSON.stringify(listen)}`);
    process.exit(2);
  }
  const port = Number(option("--port", "50051"));
  const host = option("--host", "127.0.0.1"); // the referee calls 127.0.0.1:PORT
  const address = listen ?? `${host}:${port}`;
  const server = new grpc.Server();
  server.addService(BotService, { Hello: hello, Play: play });
  server.addService(HealthService, { Check: check, Watch: watch });
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => {
    if (error) {
      log(`cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    log(listen === null ? `serving on port ${bound}` : `serving on ${listen}`);
  });
  const stop = () => server.tryShutdown(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const referee = Number(process.env.RAGE_REFEREE_PID || 0);
  if (referee > 0) {
    const launchedDirectly = process.ppid === referee;
    setInterval(() => {
      if (refereeGone(referee, launchedDirectly)) {
        log("the referee that launched this bot is gone; stopping");
        process.exit(0);
      }
    }, 1000).unref();
  }
}

if (require.main === module) main();

module.exports = { decode, winnerIndex, chooseBid, choosePlay };
