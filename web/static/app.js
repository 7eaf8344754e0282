// The page of `lobo-hint serve`: draws what the server says and sends what is tapped. Every rule
// is the server's (the companion of solver/play): this script only lists, filters and asks.
"use strict";

const S = {
  id: null, game: null, key: null, whole: false, seconds: 2, timer: null, busy: false, failures: 0, asked: false, held: 0,
  sel: { hand: [], reserve: [], wolf: [], member: null }, pad: { player: [], wolf: [] }, padRefilled: false, padRev: null,
};
const $ = (id) => document.getElementById(id);
const FEW = 8; // plays listed before "show all": a final round has twenty-odd
const RECENT_GAMES = 5; // games listed before "show them all": New game stays a short scroll away

// The token of the address `serve` printed: kept, and sent with every request.
(function keepToken() {
  const t = new URLSearchParams(location.search).get("token");
  if (t) localStorage.setItem("lobo-token", t);
})();

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid);
  return el;
}

async function api(method, path, body) {
  const headers = {};
  const token = localStorage.getItem("lobo-token");
  if (token) headers["X-Lobo-Token"] = token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) { // the server out of reach: said, and the polling retries with backoff
    S.failures += 1;
    $("offline").hidden = false;
    const err = new Error("the server cannot be reached: trying again");
    err.status = 0;
    throw err;
  }
  S.failures = 0;
  $("offline").hidden = true;
  if (S.unsent) { // back: what was not made is said in the past (found by a review: "try again when it is back")
    showError(`${S.unsent} while the server was out of reach: try again.`);
    S.unsent = null;
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.error) || `the server answered ${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

function setTitle(long, short) {
  $("title").querySelector(".long").textContent = long;
  $("title").querySelector(".short").textContent = short;
}

function showError(message) {
  if (!message) S.unsent = null; // (what was not made is no longer said)
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// ---------------------------------------------------------------------------------------------
// The list of games

async function showGames() {
  S.id = null;
  roomForDock();
  $("games-view").hidden = false;
  $("game-view").hidden = true;
  $("home").hidden = true;
  setTitle("lobo-hint", "lobo-hint");
  delete document.body.dataset.steps;
  delete document.body.dataset.phase;
  const data = await api("GET", "/api/games");
  const list = $("games");
  // The latest few, the rest behind one tap: a long list pushed New game screens down (found by
  // a review). The server lists the games latest first.
  const shown = S.allGames ? data.games : data.games.slice(0, RECENT_GAMES);
  const more = data.games.length - shown.length;
  list.replaceChildren(...shown.map((g) => h("li", {},
    h("a", { href: `/g/${g.id}`, class: "game", "data-id": g.id },
      h("strong", {}, g.title),
      h("span", {}, g.over ? g.result : `round ${g.round} · ${g.next}`),
      h("span", {}, `last step ${when(g.updated)}`)))),
    ...(more > 0 ? [h("li", {}, h("button", { class: "link", id: "all-games", onclick: () => { S.allGames = true; showGames(); } },
      `… and ${more} older ${more === 1 ? "game" : "games"}: show them all`))] : []));
  $("no-games").hidden = data.games.length > 0;
  $("folder").textContent = `Saved after every step in ${data.games_folder}` +
    (data.skipped.length ? ` (${data.skipped.length} ${data.skipped.length === 1 ? "file" : "files"} there could not be resumed)` : "");
  formChoices();
}

// A time the way a list of games says it: the hour today, else the day and the hour.
function when(seconds) {
  const d = new Date(seconds * 1000);
  const hour = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return d.toDateString() === new Date().toDateString() ? `at ${hour}`
    : `${d.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" })}, ${hour}`;
}

async function deleteGame() {
  if (!S.id || !window.confirm("Delete this game and its save file? This cannot be undone.")) return;
  try {
    await api("DELETE", `/api/games/${S.id}`);
    history.pushState(null, "", "/");
    clearTimeout(S.timer);
    route();
  } catch (e) { showError(e.message); }
}

function formChoices() {
  const f = $("new-game");
  $("f-seed").hidden = f.mode.value !== "virtual";
  $("f-target").hidden = !isRace(f);
}

// Whether the game chosen is a race to a target score (its radio button says: data-race).
function isRace(f) {
  const chosen = f.querySelector('input[name="game"]:checked');
  return chosen !== null && chosen.hasAttribute("data-race");
}

async function newGame(ev) {
  ev.preventDefault();
  const f = $("new-game");
  const body = { game: f.game.value, difficulty: f.difficulty.value, mode: f.mode.value };
  if (body.mode === "virtual" && f.seed.value !== "") body.seed = Number(f.seed.value);
  if (isRace(f) && f.target.value !== "") body.target = Number(f.target.value);
  if (f.top.checked) body.rules = { top_card_visible: true };
  try {
    const g = await api("POST", "/api/games", body);
    showError("");
    history.pushState(null, "", `/g/${g.id}`);
    openGame(g.id, g);
  } catch (e) { showError(e.message); }
}

async function upload(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  try {
    const g = await api("POST", "/api/games/upload", { text: await file.text() });
    showError("");
    history.pushState(null, "", `/g/${g.id}`);
    openGame(g.id, g);
  } catch (e) { showError(e.message); }
  ev.target.value = "";
}

// ---------------------------------------------------------------------------------------------
// One game

function openGame(id, data) {
  S.id = id; S.key = null; S.whole = false; S.allColumns = false;
  window.scrollTo({ top: 0 });
  $("games-view").hidden = true;
  $("game-view").hidden = false;
  $("home").hidden = false;
  const token = localStorage.getItem("lobo-token");
  $("download").href = `/api/games/${id}/save` + (token ? `?token=${encodeURIComponent(token)}` : "");
  if (data) show(data); else refresh();
}

async function refresh() {
  if (!S.id) return;
  try {
    show(await api("GET", `/api/games/${S.id}` + (S.whole ? "?all=1" : "")));
  } catch (e) {
    if (e.status === 404) { // no such game (a wrong address, or deleted): the list, saying so
      history.replaceState(null, "", "/");
      await showGames().catch(() => {});
      showError(e.message);
      return;
    }
    if (e.status !== 0) showError(e.message); // out of reach: the "reconnecting" line says so
    schedule(); // and the page keeps asking (show() schedules the next poll only on an answer)
  }
}

// Every change goes through here: the step number and revision shown, so a page that is behind
// another device is refused (and reloaded) instead of stepping over it.
// An answer changes the layout (the dock shrinks as a keypad goes, the list of plays moves up):
// a tap that was meant for the button that was there (the second of a double tap) must not land
// on what is there now, so the page stays busy a moment after every answer and ignores taps.
const SETTLE = 600; // ms: a double tap's second tap comes within about half a second

// A tap the page ignores shows it was seen: the page dims a moment ("held"), so a person who
// tapped on purpose taps again instead of wondering (found by a review: nothing showed).
function held() {
  S.held += 1;
  document.body.classList.add("held");
  clearTimeout(S.heldTimer);
  S.heldTimer = setTimeout(() => document.body.classList.remove("held"), 350);
}

async function act(path, extra) {
  if (!S.game) return false;
  if (S.busy) { held(); return false; }
  S.busy = true;
  document.body.classList.add("busy");
  let done = false;
  try {
    const b = S.game.board;
    const g = await api("POST", `/api/games/${S.id}/${path}` + (S.whole ? "?all=1" : ""),
      { at: b.steps, rev: b.revision, ...extra });
    show(g);
    // A deal or draw taken back: its cards back in the keypad's slots, to fix one and confirm.
    // Untouched, they leave Undo a step's: a second tap goes on back (a review: it took cards).
    if (path === "undo" && g.undone) {
      const u = g.undone;
      S.pad = u.cards ? { player: [...u.cards], wolf: [] } : { player: [...u.player], wolf: [...u.wolf] };
      S.padRefilled = true;
      redraw();
    }
    showError("");
    done = true;
    // After a step or an undo the table is what changed: back in view if it was scrolled away.
    const bar = document.querySelector(".bar").getBoundingClientRect().bottom;
    if ((path === "step" || path === "undo") && $("table").getBoundingClientRect().top < bar) window.scrollTo({ top: 0 });
  } catch (e) {
    // Out of reach: the "reconnecting" line says so, and this says what did not happen (found by
    // a review: a play tapped then was dropped without a word).
    if (e.status !== 0) showError(e.message);
    else {
      S.unsent = unsent(path, extra);
      showError(`${S.unsent}: the server cannot be reached. Try again when it is back.`);
    }
    if (e.status === 409 || e.status === 0) refresh();
  } finally {
    setTimeout(() => {
      S.busy = false;
      document.body.classList.remove("busy");
    }, SETTLE);
  }
  return done;
}

const step = (line) => act("step", { line });
const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;

function unsent(path, extra) {
  if (path === "step") return `${extra.line} was not made`;
  if (path === "undo") return "Nothing was taken back";
  if (path === "hint") return "No hint was asked";
  if (path === "analyse") return "No analysis was started";
  return "Nothing was done";
}

// Cards tapped into the keypad and not yet confirmed: Undo takes back the last of them (found by
// a review: the Undo beside Confirm dropped the cards and took back the step before them).
function padCards() { return S.pad.player.length + S.pad.wolf.length; }
// Cards Undo takes back one by one: none while the slots hold a step's cards untouched.
function padEdits() { return S.padRefilled ? 0 : padCards(); }
// Undo takes back a card: one tapped, or one of a step's cards put back when no step is left to
// take back (found by a review: after the first deal was undone, Undo was live and refused).
function cardUndo() { return padEdits() > 0 || (padCards() > 0 && !(S.game && S.game.board.can_undo)); }

function undo() {
  if (cardUndo()) {
    S.pad[S.pad.wolf.length ? "wolf" : "player"].pop();
    // The last card gone, the button is a step's Undo again: a double tap's second tap must not
    // take a step back (found by a review), so it is held a moment, as after an answer.
    if (!padCards()) S.padQuietUntil = Date.now() + SETTLE;
    redraw();
    return;
  }
  if (Date.now() < (S.padQuietUntil || 0)) { held(); return; }
  act("undo", { count: 1 });
}

function show(g) {
  const was = S.game && S.game.id === g.id ? S.game : null;
  S.game = g;
  const b = g.board;
  if (S.padRev !== b.revision) {
    S.padRev = b.revision;
    S.sel = { hand: [], reserve: [], wolf: [], member: null };
    S.pad = { player: [], wolf: [] };
    S.padRefilled = false;
    S.allPlays = false;
  }
  const key = JSON.stringify({ ...g, job: g.job && { state: g.job.state, message: g.job.message } });
  if (key !== S.key) {
    S.key = key;
    setTitle(g.title, g.short_title);
    document.body.dataset.steps = String(b.steps);
    document.body.dataset.phase = b.phase;
    document.title = `${g.title} · lobo-hint`;
    drawTable(b);
    drawNotes(g.notes);
    drawAction(b);
    drawHint(g);
    $("history").replaceChildren(...b.history.map((line) => h("li", {}, line)));
    // A virtual game's deal is the deck's: nothing to take back but the cards tapped.
    $("undo").disabled = !b.can_undo && !padCards();
    $("undo").textContent = cardUndo() ? "Undo card" : "Undo";
  }
  // A job the server lost while it ran (it restarted): asked again, for the same table, once.
  const lost = was && was.job && was.job.state === "running" && !g.job && was.board.revision === b.revision;
  if (lost && !S.reasked) {
    S.reasked = true;
    if (was.job.kind === "analysis") S.wantAnalysis = true;
    setTimeout(() => act(was.job.kind === "analysis" ? "analyse" : "hint", { seconds: was.job.seconds }), 0);
  } else if (!g.job || g.job.state !== "running") S.reasked = false;
  drawJob(g.job);
  drawAnalyse(g);
  roomForDock();
  schedule();
}

function schedule() {
  clearTimeout(S.timer);
  if (!S.id) return;
  const running = S.game && S.game.job && S.game.job.state === "running";
  // After failures the polls back off (0.5 s doubling to 8 s) until the server answers again.
  const wait = S.failures ? Math.min(8000, 250 * 2 ** S.failures) : running ? 250 : 2000;
  S.timer = setTimeout(() => { if (!document.hidden) refresh(); else schedule(); }, wait);
}

// The dock is fixed at the bottom (at the right of a phone on its side, as app.css says): the page
// keeps room for it below its last panel, or beside it.
const SIDE_DOCK = window.matchMedia("(orientation: landscape) and (max-height: 520px)");
function roomForDock() {
  const side = Boolean(S.id) && SIDE_DOCK.matches;
  document.body.style.paddingBottom = S.id && !side ? `${$("dock").offsetHeight + 8}px` : "";
  document.body.style.paddingRight = side ? `${$("dock").offsetWidth}px` : "";
  document.body.style.setProperty("--dock-h", S.id && !side ? `${$("dock").offsetHeight}px` : "0px");
}

const WHOSE = { hand: "your", wolf: "the Wolf's", reserve: "reserve" };

function cardsRow(values, where, whose) {
  if (!values || !values.length) return h("span", { class: "none" }, "—");
  const said = (v) => `${WHOSE[whose]} ${v === 1 ? "ace" : v}`;
  return h("span", { class: "cards" }, values.map((v, i) => {
    if (!where) return h("span", { class: "card", role: "img", "aria-label": said(v) }, String(v));
    const on = S.sel[where].includes(i);
    return h("button", {
      class: "card" + (on ? " on" : ""), "data-where": where, "data-value": v, "aria-pressed": on ? "true" : "false",
      "aria-label": said(v),
      onclick: () => { toggle(where, i); },
    }, String(v));
  }));
}

function toggle(where, i) {
  const list = S.sel[where];
  const at = list.indexOf(i);
  if (at >= 0) list.splice(at, 1); else list.push(i);
  redraw();
}

// A tap that builds the next play or entry: drawn again, and an error about the last one cleared
// (found by a review: it stayed, pushing the table down on a small phone).
function redraw() {
  S.key = null;
  showError("");
  show(S.game);
}

function row(label, ...content) {
  return h("div", { class: "row" }, h("span", { class: "label" }, label), h("span", { class: "value" }, ...content));
}

function drawTable(b) {
  const playing = b.phase === "play";
  const rows = [];
  if (b.over) rows.push(h("p", { class: "result " + b.result, id: "result" }, b.result_text));
  rows.push(row("Wolf", b.wolf && b.wolf.length ? [cardsRow(b.wolf, playing ? "wolf" : null, "wolf"), total(b.wolf)] : h("span", { class: "none" }, "—")));
  rows.push(row("You", b.hand.length ? [cardsRow(b.hand, playing ? "hand" : null, "hand"), total(b.hand, b.winning_hand ? "winning hand" : "")]
    : h("span", { class: "none" }, "—")));
  // The board has what the game has: a reserve and a party (vanguard), or points (lobo).
  if (b.reserve) rows.push(row("Reserve", cardsRow(b.reserve, playing ? "reserve" : null, "reserve")));
  if (b.party) {
    rows.push(row("Party", h("span", { class: "cards" }, ["J", "Q", "K"].map((m) => {
      const up = b.party.up.includes(m);
      // Tappable where a play sacrifices it: the final round (found by a review: a tap in a
      // regular round emptied the list of plays, Fold too, and said nothing of why).
      const sacrificed = playing && up && (b.plays || []).some((p) => p.member === m);
      if (!sacrificed) return h("span", { class: "card member" + (up ? "" : " down"), title: up ? "face up" : "face down" }, m);
      const on = S.sel.member === m;
      return h("button", { class: "card member" + (on ? " on" : ""), "data-member": m, "aria-pressed": on ? "true" : "false",
        onclick: () => { S.sel.member = on ? null : m; redraw(); } }, m);
    })), h("span", { class: "quiet" }, b.party_text)));
  }
  if (b.points) {
    rows.push(row("Score", `you ${b.points.you}, the Wolf ${b.points.wolf} (first to ${b.points.target})`));
  }
  rows.push(row("Pile", `${b.pile.size} card${b.pile.size === 1 ? "" : "s"}` + (b.pile.top.length ? `, known top: ${b.pile.top.join(" ")}` : ""),
    h("span", { class: "quiet" }, `· ${b.discards.length} discarded`)));
  const unseen = b.unseen.map((n, i) => [i + 1, n]).filter(([, n]) => n > 0);
  rows.push(row("Unseen", h("span", { class: "unseen" }, unseen.map(([v, n]) => h("span", { class: "count" }, h("b", {}, String(v)), `×${n}`))),
    h("span", { class: "quiet" }, ` ${unseen.reduce((a, [, n]) => a + n, 0)} cards`)));
  rows.push(row("Round", `${b.round}` + (b.to_be_dealt ? " (to be dealt)" : "") + (b.reshuffles ? ` (${b.reshuffles} reshuffle(s))` : "")));
  if (b.final) rows.push(row("Final round", h("span", { class: b.final.in_play ? "final" : "" }, b.final.status)));
  rows.push(row("Next", h("strong", { id: "next" }, b.next)));
  $("table").replaceChildren(...rows);
}

function total(values, what) {
  const sum = values.reduce((a, v) => a + v, 0);
  return h("span", { class: "quiet" }, ` (${what ? what + ", " : ""}total ${sum})`);
}

function drawNotes(notes) {
  $("notes").replaceChildren(...notes.map((n) => h("li", { class: n.kind }, n.text)));
  $("notes-panel").hidden = notes.length === 0;
}

// -- what the table waits for -----------------------------------------------------------------

function drawAction(b) {
  // What the table waits for goes in the dock when it is a few buttons (a reward, a reshuffle, the
  // keypad of real cards); the list of plays, and the game's summary, stay on the page.
  const docked = !b.over && (b.phase === "reward" || (b.mode === "physical" && ["reshuffle", "deal", "draw"].includes(b.phase)));
  // Cards to enter: the keypad takes the dock, with Undo beside Confirm (Hint waits for a play).
  const entering = !b.over && b.mode === "physical" && (b.phase === "deal" || b.phase === "draw");
  document.body.classList.toggle("entering", entering);
  document.querySelector(".tools").append($("undo")); // back in its row (the keypad takes it again)
  $("play-tapped").hidden = true; // until the cards tapped make one play
  const box = docked ? $("dock-action") : $("action");
  $("dock-action").hidden = !docked;
  $("action").hidden = docked;
  (docked ? $("action") : $("dock-action")).replaceChildren();
  const parts = [];
  if (b.over) {
    parts.push(h("h2", {}, "The game"));
    parts.push(h("ul", { class: "summary", id: "summary" }, b.summary.map((l) => h("li", {}, l))));
  } else if (b.phase === "play") {
    parts.push(...playChoices(b));
  } else if (b.phase === "reward") {
    parts.push(h("h2", {}, "Choose a reward"));
    const advice = S.game.hint && S.game.hint.kind === "advice" ? S.game.hint : null;
    const hinted = advice && advice.rewards.length ? advice.rewards[0].reward : null;
    parts.push(h("div", { class: "choices" }, b.rewards.map((r) =>
      h("button", { class: "choice-btn primary" + (r.text === hinted ? " hinted" : ""), "data-line": r.text, onclick: () => step(r.text) },
        r.text, r.text === hinted ? h("small", {}, " · the hint") : null))));
    if (!advice) parts.push(h("p", { class: "quiet" }, "Hint ranks the rewards by the chance to win the game."));
  } else if (b.mode === "physical" && b.phase === "reshuffle") {
    parts.push(h("p", {}, "Shuffle the discards into the pile, then tap the button.")); // b.prompts are the terminal's
    parts.push(h("button", { class: "primary", "data-line": "reshuffle", onclick: () => step("reshuffle") }, "The discards are shuffled in"));
  } else if (b.mode === "physical" && (b.phase === "deal" || b.phase === "draw")) {
    parts.push(...keypad(b));
  } else {
    parts.push(h("p", {}, b.next));
  }
  box.replaceChildren(...parts);
  // The game over, what is left to do is in the dock: its analysis (found by a review: a greyed
  // Hint was all the dock held). drawAnalyse keeps it as the panel's button.
  document.body.classList.toggle("over", !!b.over);
  if (b.over) {
    $("dock-action").hidden = false;
    $("dock-action").replaceChildren(h("button", { class: "primary wide", id: "analyse-dock", onclick: analyse }, "Analyse the game"));
  }
}

function counts(values) {
  const c = new Map();
  for (const v of values) c.set(v, (c.get(v) || 0) + 1);
  return c;
}

function within(want, have) { // every card of `want` is among `have` (multisets)
  const c = counts(have);
  for (const [v, n] of counts(want)) if ((c.get(v) || 0) < n) return false;
  return true;
}

function same(a, b) { return a.length === b.length && within(a, b); }

function playChoices(b) {
  const pick = (where) => S.sel[where].map((i) => b[where][i]);
  const sel = { hand: pick("hand"), reserve: pick("reserve"), wolf: pick("wolf"), member: S.sel.member };
  const any = sel.hand.length || sel.reserve.length || sel.wolf.length || sel.member;
  const fits = (p) => within(sel.hand, p.hand) && within(sel.reserve, p.reserve) && within(sel.wolf, p.wolf) &&
    (!sel.member || p.member === sel.member);
  const exact = (p) => same(sel.hand, p.hand) && same(sel.reserve, p.reserve) && same(sel.wolf, p.wolf) &&
    (sel.member || null) === (p.member || null);
  const fitting = b.plays.filter(fits);
  // The one play the tapped cards make, in the dock: the list may be below the screen's edge.
  const made = any ? fitting.filter(exact) : [];
  const tapped = $("play-tapped");
  tapped.hidden = made.length !== 1;
  if (made.length === 1) {
    tapped.textContent = `Play ${made[0].text}`;
    tapped.onclick = () => { if (Date.now() < (S.dockQuietUntil || 0)) held(); else step(made[0].text); };
  }
  let shown = any || S.allPlays || fitting.length <= FEW + 1 ? fitting : fitting.slice(0, FEW);
  // Fold is always listed: saving the party is a choice of its own (found by a review: it was
  // behind "show all" in an ordinary round).
  const fold = fitting.find((p) => p.text === "fold");
  if (fold && !shown.includes(fold)) shown = [...shown, fold];
  const parts = [h("h2", {}, any ? "Plays with the cards you tapped" : `Your play (${b.plays.length} legal)`)];
  parts.push(h("p", { class: "quiet" }, any ? "Tap a play to make it, or tap more cards."
    : "Tap your cards and the Wolf's to find a play, or tap one below."));
  if (any) parts.push(h("button", { class: "link", id: "clear-tapped", onclick: () => { S.sel = { hand: [], reserve: [], wolf: [], member: null }; S.key = null; show(S.game); } }, "clear the cards tapped"));
  const list = h("ul", { class: "plays", id: "plays" }, shown.map((p) =>
    h("li", {}, h("button", { class: "play" + (any && exact(p) ? " exact" : ""), "data-line": p.text, onclick: (ev) => tapPlay(ev, p.text) },
      h("strong", {}, p.text), h("span", { class: "then" }, p.then || "")))));
  parts.push(shown.length ? list : h("p", { class: "quiet" }, "No legal play uses exactly those cards."));
  if (shown.length < fitting.length) {
    parts.push(h("button", { class: "link", id: "all-plays", onclick: () => { S.allPlays = true; S.key = null; show(S.game); } },
      `show all ${fitting.length} plays`));
  }
  const form = h("form", { class: "typed", onsubmit: (ev) => { ev.preventDefault(); const v = ev.target.line.value.trim(); if (v) step(v); } },
    h("label", { for: "typed", class: "sr-only" }, "Type a play"),
    h("input", { name: "line", id: "typed", placeholder: "or type a play: 4+2=6, 9>6, 7r=7, K=8, fold", autocomplete: "off", autocapitalize: "off" }),
    h("button", { type: "submit" }, "Play"));
  parts.push(form);
  return parts;
}

// A play in a list: made at once, but a fold (it gives the round up) only on a second tap, unless
// it is the only play: a stray tap on a list that moved under the finger must not fold.
const ARM_WAIT = 400; // ms before a fold's second tap counts (found by a review: a double tap folded)

function tapPlay(ev, line, shown) {
  const btn = ev.currentTarget;
  const alone = S.game && S.game.board.plays && S.game.board.plays.length <= 1;
  if (line !== "fold" || alone) { step(line); return; }
  if (btn.dataset.armed) {
    if (Date.now() - Number(btn.dataset.armed) < ARM_WAIT) { held(); return; }
    step(line);
    return;
  }
  if (S.busy) { held(); return; }
  const label = btn.querySelector("strong") || btn;
  btn.dataset.armed = String(Date.now());
  btn.classList.add("armed");
  label.textContent = "Tap again to fold";
  btn.setAttribute("aria-label", "Tap again to fold: the round is given up");
  setTimeout(() => { // not tapped again: back as it was
    delete btn.dataset.armed;
    btn.classList.remove("armed");
    btn.removeAttribute("aria-label");
    label.textContent = shown || line;
  }, 4000);
}

function keypad(b) {
  const parts = [];
  const deal = b.phase === "deal";
  const owed = b.owed || { who: "", count: 0 };
  const need = deal ? { player: b.deal[0], wolf: b.deal[1] } : { player: owed.count, wolf: 0 };
  const side = deal ? (S.pad.player.length < need.player ? "player" : "wolf") : "player";
  const chosen = [...S.pad.player, ...S.pad.wolf];
  let title;
  if (deal) title = `Deal round ${b.round}: ${cards(need.player)} to you, ${need.wolf} to the Wolf`;
  else if (owed.who === "reveal") title = "The new top card of the pile";
  else title = `${owed.who === "player" ? "You draw" : "The Wolf draws"} ${cards(owed.count)}`;
  parts.push(h("h2", {}, title));
  const slots = (who, label) => h("div", { class: "slots" + (side === who ? " current" : "") },
    h("span", { class: "label" }, label),
    Array.from({ length: need[who] }, (_, i) => {
      const v = S.pad[who][i];
      const whose = who === "player" ? (owed.who === "reveal" ? "the top card" : owed.who === "wolf" ? "the Wolf's card" : "your card")
        : "the Wolf's card";
      return h("button", { class: "slot" + (v ? " filled" : ""), "data-slot": `${who}-${i}`,
        "aria-label": v ? `${whose} ${i + 1}: ${v}, tap to take it back` : `${whose} ${i + 1}: empty`,
        onclick: () => { if (v) { S.pad[who].splice(i, 1); S.padRefilled = false; redraw(); } } }, v ? String(v) : "·");
    }));
  if (deal) {
    parts.push(slots("player", "You"));
    parts.push(slots("wolf", "Wolf"));
  } else {
    parts.push(slots("player", owed.who === "reveal" ? "Top" : owed.who === "player" ? "You" : "Wolf"));
  }
  const full = S.pad.player.length === need.player && S.pad.wolf.length === need.wolf;
  const target = full ? "All the cards are in: confirm them."
    : !deal ? (owed.who === "reveal" ? "Tap the top card." : owed.who === "wolf" ? `Tap the Wolf's card${owed.count === 1 ? "" : "s"}.` : `Tap your card${owed.count === 1 ? "" : "s"}.`)
      : side === "player" ? `Next tap: your card ${S.pad.player.length + 1} of ${need.player}.`
        : `Next tap: the Wolf's card ${S.pad.wolf.length + 1} of ${need.wolf}.`;
  parts.push(h("p", { class: "target", id: "pad-target", "aria-live": "polite" }, target));
  const used = counts(chosen);
  parts.push(h("div", { class: "keypad" }, Array.from({ length: b.top }, (_, i) => {
    const v = i + 1;
    const left = b.unseen[i] + b.pile.top.filter((x) => x === v).length - (used.get(v) || 0);
    return h("button", { class: "key", "data-key": v, disabled: full || left <= 0, "aria-label": `${v === 1 ? "ace" : v}, ${left > 0 ? left : "none"} left`,
      onclick: () => { S.pad[side].push(v); S.padRefilled = false; redraw(); } },
    // The ace is 1 here as on the table and in every play (RULES.md: Ace = 1).
    h("b", {}, String(v)), h("small", {}, left > 0 ? `${left} left` : "none left"));
  })));
  const line = deal ? `deal ${S.pad.player.join(" ")} / ${S.pad.wolf.join(" ")}`
    : `${owed.who === "reveal" ? "reveal" : "draw"} ${S.pad.player.join(" ")}`;
  const n = need.player + need.wolf;
  parts.push(h("div", { class: "confirm-row" },
    h("button", { class: "primary", id: "confirm", "data-line": line, disabled: !full, onclick: () => step(line) },
      full ? ["Confirm", h("span", { class: "more" }, ` the ${n === 1 ? "card" : `${n} cards`}`)] : "Tap the cards first"),
    $("undo")));
  return parts;
}

// -- hints --------------------------------------------------------------------------------------

// How a job ended, when it did not answer (stopped, or failed).
function jobEnd(job) {
  if (!job || job.state === "running" || job.state === "done" || !job.message) return null;
  const what = job.kind === "analysis" ? "Analysis" : "Hint";
  return job.state === "cancelled"
    ? (job.message === "stopped" ? `${what} stopped: nothing changed.`
      : job.message === "the table changed" ? `${what} stopped: the table changed before it was done.`
      : `${what} stopped (${job.message}): nothing changed.`)
    : `${what} failed: ${job.message}`;
}

function drawJob(job) {
  const box = $("job");
  const running = job && job.state === "running";
  // A job that ends unanswered says so in the dock for a few seconds, where Stop was tapped.
  if (S.jobRunning && !running && jobEnd(job)) S.endUntil = Date.now() + 4000;
  S.jobRunning = running;
  const ending = !running && jobEnd(job) !== null && Date.now() < (S.endUntil || 0);
  box.hidden = !running && !ending;
  box.querySelector(".progress").hidden = !running;
  $("stop").hidden = !running;
  $("hint").disabled = running || !S.game || !["play", "reward"].includes(S.game.board.phase);
  if (ending) {
    $("job-text").textContent = jobEnd(job);
    clearTimeout(S.endTimer);
    S.endTimer = setTimeout(() => drawJob(S.game && S.game.job), S.endUntil - Date.now() + 50);
  }
  if (!running) return;
  const started = job.started;
  const frac = job.kind === "hint" ? Math.min(1, job.elapsed / job.seconds)
    : job.kind === "analysis" && job.total ? job.done / job.total : null;
  $("bar").style.width = frac === null ? "100%" : `${Math.round(100 * frac)}%`;
  $("bar").className = frac === null ? "busy" : "";
  $("job-text").textContent = (S.reasked ? "the server restarted: asked again; " : "") + (!started ? "loading the engine…"
    : job.kind === "hint" ? `thinking… ${job.elapsed.toFixed(1)} s of at most ${job.seconds} s`
      : job.kind === "analysis" ? `analysing… ${job.done} of ${job.total || "?"} moments, ${job.elapsed.toFixed(0)} s`
        : `weighing the rewards… ${job.elapsed.toFixed(1)} s`);
}

// The hint's best play (or reward) as one button in the dock: a hinted play is one tap.
function drawBest(x, b) {
  const btn = $("play-best");
  // Not for a reward: the dock's own reward buttons mark the hint's (found by a review: the same
  // choice twice in a dock that at a large font took the screen).
  const line = !x || b.over || x.kind === "advice" ? null : b.phase === "play" ? (x.best || "fold") : null;
  const text = line === null ? "" : `Play the hint: ${line}`;
  // A button that appears under the finger (in Stop's place as the answer lands, or pushing a
  // tapped play up) takes no tap for a moment (found by a review: a tap meant for Stop played it).
  if (line !== null && (btn.hidden || btn.dataset.line !== line)) S.dockQuietUntil = Date.now() + SETTLE;
  btn.hidden = line === null;
  if (line === null) return;
  if ($("play-tapped").textContent === `Play ${line}`) $("play-tapped").hidden = true; // the same play once
  btn.textContent = text;
  btn.dataset.line = line;
  btn.onclick = (ev) => {
    if (Date.now() < (S.dockQuietUntil || 0)) { held(); return; }
    if (line === "fold") tapPlay(ev, line, text); else step(line); // a fold only on a second tap
  };
}

// Cells past the first value column: hidden on a phone until asked for (the table then fits).
function cellClass(i, base) { return i > 0 ? `${base} extra` : base; }

// The table in one line at the hint's top, which a phone shows where the table scrolled away:
// everything the advice weighs (found by a review: no score in lobo, no party or pile in a
// final round, nothing above reward advice).
function tableLine(b) {
  const said = [["Wolf", b.wolf], [b.phase === "reward" ? "Winning hand" : "You", b.hand], ["Reserve", b.reserve]]
    .filter(([, c]) => c && c.length).map(([who, c]) => `${who} ${c.join(" ")}`);
  if (b.party) said.push(`Party ${b.party.up.join(" ") || "—"}`);
  said.push(`Pile ${b.pile.size}`);
  if (b.points) said.push(`Score you ${b.points.you}, the Wolf ${b.points.wolf}`);
  return h("p", { class: "quiet hint-cards", id: "hint-cards" }, said.join(" · "));
}

function drawHint(g) {
  const out = $("hint-out");
  const parts = [];
  drawBest(g.hint, g.board);
  const job = g.job;
  const end = jobEnd(job);
  if (end) parts.push(h("p", { class: job.state === "failed" ? "warn" : "quiet", id: "job-end" }, end));
  const x = g.hint;
  if (x && x.kind === "advice") {
    parts.push(tableLine(g.board));
    parts.push(h("p", { class: "best" }, x.verdict));
    parts.push(h("div", { class: "hint-wrap" }, h("table", { class: "hint" + (S.allColumns ? " all" : ""), id: "hint-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Reward"), h("th", {}, "Win"), h("th", { class: "extra" }, "95% interval"), h("th", {}, "vs best"))),
      h("tbody", {}, x.rewards.map((r, i) => h("tr", {},
        h("td", {}, h("button", { class: "play", "data-line": r.reward, onclick: () => step(r.reward) }, r.reward)),
        h("td", {}, r.win_text), h("td", { class: "extra" }, r.interval_text), h("td", {}, i === 0 ? "best" : r.vs_text)))))));
    parts.push(moreColumns());
    parts.push(h("p", { class: "quiet", id: "advice-made-by" }, `Chances to win the game: ${x.made_by}.`));
  } else if (x) {
    parts.push(tableLine(g.board));
    parts.push(h("p", { class: "best", id: "hint-best" }, `Best play: ${x.best || "fold"}`, h("span", { class: "status " + x.status }, ` · status: ${x.status_text}`),
      x.exact ? null : h("span", { class: "warn", id: "not-exact" }, ` (not exact: ${x.not_exact})`)));
    if (x.reason) parts.push(h("p", {}, x.reason));
    if (x.finish) parts.push(h("p", {}, `Best finish: ${x.finish.join(", ")} → score ${x.finish_score}`));
    if (x.line) parts.push(h("p", {}, `Best line (the pile is known): ${x.line.join(", ")}`));
    parts.push(h("div", { class: "hint-wrap" }, h("table", { class: "hint" + (S.allColumns ? " all" : ""), id: "hint-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Play"), x.columns.map((c, i) => h("th", { class: cellClass(i, "") }, c)), h("th", {}, ""))),
      h("tbody", {}, x.rows.map((r) => h("tr", { class: r.best ? "top" : "" },
        h("td", {}, h("button", { class: "play", "data-line": r.text, onclick: (ev) => tapPlay(ev, r.text) }, r.text)),
        r.cells.map((c, i) => h("td", { class: cellClass(i, "num") }, c)),
        h("td", { class: "marks" }, r.mark,
          r.blunder && (r.best || r.tied) ? h("span", { class: "quiet", title: "gives up a round won for certain, as good for the game" }, " gives up the round")
            : r.blunder ? h("span", { class: "bad", title: "gives up a round won for certain" }, " blunder") : null)))))));
    if (x.columns.length > 1) parts.push(moreColumns());
    if (x.blunder_note) parts.push(h("p", { class: "quiet" }, x.blunder_note));
    if (x.ties_note) parts.push(h("p", { class: "quiet", id: "ties-note" }, x.ties_note));
    if (x.note) parts.push(h("p", { class: "quiet", id: "hint-note" }, x.note)); // below the numbers it qualifies
    if (x.left_out) parts.push(h("button", { class: "link", id: "hint-all", onclick: () => { S.whole = true; refresh(); } }, `… and ${x.left_out} more plays: show them all`));
    if (x.estimates_note) {
      // The note on estimates is a paragraph: its first sentence shown, the rest on tap.
      const first = x.estimates_note.split(/(?<=\.)\s/)[0];
      parts.push(first === x.estimates_note ? h("p", { class: "quiet" }, first)
        : h("details", { class: "quiet" }, h("summary", {}, first), h("p", {}, x.estimates_note.slice(first.length).trim())));
    }
    parts.push(h("details", {}, h("summary", {}, "Why"), h("ul", {}, x.why.map((l) => h("li", {}, l)))));
  }
  out.replaceChildren(...parts);
  $("hint-panel").hidden = parts.length === 0;
  // The answer to a Hint tapped on this page is brought into view once: below the plays on a
  // phone it was a scroll away, and the chances are what the player asked for.
  if (S.asked && x && !(job && job.state === "running")) {
    S.asked = false;
    // (On a phone the hands are said again at the panel's top: .hint-cards.)
    $("hint-panel").scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

// -- the analysis of the game ---------------------------------------------------------------------

function drawAnalyse(g) {
  const btn = $("analyse");
  const job = g.job;
  const running = job && job.state === "running";
  const a = g.analysis;
  btn.disabled = running || !g.board.can_analyse;
  btn.textContent = a && a.current ? "Show the analysis" : a ? `Analyse again (the last one stops at step ${a.at})`
    : g.analysis_outdated ? "Analyse again (steps were taken back)" : "Analyse the game";
  const docked = $("analyse-dock");
  if (docked) { docked.disabled = btn.disabled; docked.textContent = btn.textContent; }
  // An analysis asked on this page opens when it is done.
  if (S.wantAnalysis && job && job.kind === "analysis" && job.state !== "running") {
    S.wantAnalysis = false;
    if (job.state === "done") openAnalysis();
  }
}

function analyse() {
  const a = S.game && S.game.analysis;
  if (a && a.current) { openAnalysis(); return; }
  S.wantAnalysis = true;
  act("analyse", { seconds: Number($("seconds").value) });
}

async function openAnalysis() {
  try {
    drawAnalysis(await api("GET", `/api/games/${S.id}/analysis`));
  } catch (e) {
    if (e.status !== 0) showError(e.message);
  }
}

function drawAnalysis(a) {
  const detail = h("div", { id: "analysis-detail", class: "detail", "aria-live": "polite" }, "Tap a decision to see the table as it was and the hint.");
  const hintTable = (d) => h("table", { class: "hint-rows" },
    h("caption", {}, `The hint then (${d.options} options)`),
    h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, d.kind === "reward" ? "reward" : "play"), h("th", { scope: "col" }, "chance to win")),
    d.hint_rows.map((r) => h("tr", { class: r.played ? "played" : "" },
      h("td", {}, String(r.rank)), h("td", {}, r.option + (r.played ? " (yours)" : "")), h("td", {}, r.chance_text))));
  const marked = (d) => (d.mark ? ` ${d.mark}` : "") + (d.played !== d.best && !d.told_apart ? " ≈" : "");
  const items = a.decisions.map((d) => h("li", {},
    h("button", { class: "decision" + (d.mark ? " marked" : ""), "data-step": d.step, "data-played": d.played, onclick: () => {
      detail.replaceChildren(h("p", {}, h("b", {}, `Step ${d.number}, round ${d.round}: `), d.table_text), h("p", {}, d.verdict), hintTable(d));
    } }, `${d.number}. ${d.played}${marked(d)}`, h("span", { class: "quiet" }, ` ${d.played_text}`))));
  const plot = h("img", { id: "analysis-plot", alt: "The chance to win over the game, the marked decisions and the big swings of luck labelled",
    src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(a.svg) });
  $("analysis-out").replaceChildren(
    h("h2", {}, a.current ? "The analysis" : `The analysis (of the first ${a.at} steps)`),
    h("ul", { class: "summary" }, a.summary_lines.map((l) => h("li", {}, l))),
    h("div", { class: "plot-wrap" }, plot),
    h("p", { class: "quiet" }, "Marks by the points lost: ?! over 2, ? over 5, ?? over 10; ≈ the two chances' intervals overlap (for a reward: their difference on the same deals may be 0), so the loss is not told apart from none."),
    h("ol", { class: "decisions", id: "analysis-decisions" }, items),
    detail,
    h("button", { class: "link", onclick: () => { $("analysis-panel").hidden = true; } }, "close the analysis"));
  $("analysis-panel").hidden = false;
  $("analysis-panel").scrollIntoView({ block: "start" });
}

// The columns asked for stay for the game's later hints, as "show them all" does for the plays
// (found by a review: the table drawn again hid them).
function moreColumns() {
  const said = () => (S.allColumns ? "fewer columns" : "all the columns");
  return h("button", { class: "link more-columns", onclick: (ev) => {
    S.allColumns = !S.allColumns;
    $("hint-table").classList.toggle("all", S.allColumns);
    ev.target.textContent = said();
  } }, said());
}

// ---------------------------------------------------------------------------------------------
// Start

function route() {
  showError("");
  const m = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  if (m) openGame(m[1]); else showGames().catch((e) => showError(e.message));
}

document.addEventListener("DOMContentLoaded", () => {
  for (const s of [2, 5, 10, 30]) $("seconds").append(h("option", { value: s }, `${s} s`));
  api("GET", "/api/games").then((d) => {
    S.seconds = d.seconds;
    if (![...$("seconds").options].some((o) => Number(o.value) === d.seconds)) $("seconds").prepend(h("option", { value: d.seconds }, `${d.seconds} s`));
    const kept = localStorage.getItem("lobo-seconds"); // the player's own choice outlives a reload
    $("seconds").value = kept && [...$("seconds").options].some((o) => o.value === kept) ? kept : String(d.seconds);
  }).catch(() => {});
  $("new-game").addEventListener("submit", newGame);
  $("new-game").addEventListener("change", formChoices);
  $("upload").addEventListener("change", upload);
  $("seconds").addEventListener("change", () => localStorage.setItem("lobo-seconds", $("seconds").value));
  $("hint").addEventListener("click", () => { if (!S.busy) S.asked = true; act("hint", { seconds: Number($("seconds").value) }); });
  $("stop").addEventListener("click", () => api("POST", `/api/games/${S.id}/hint/cancel`, {}).then(show).catch((e) => {
    if (e.status !== 0) { showError(e.message); return; }
    // Out of reach (found by a review: dropped without a word, and the hint asked again once back):
    // the job went with the server; it is not asked again.
    S.reasked = true;
    showError("Stop was not sent: the server cannot be reached. The hint is not asked again when it is back.");
  }));
  new ResizeObserver(roomForDock).observe($("dock"));
  SIDE_DOCK.addEventListener("change", roomForDock);
  $("undo").addEventListener("click", undo);
  $("analyse").addEventListener("click", analyse);
  $("delete").addEventListener("click", deleteGame);
  $("home").addEventListener("click", (ev) => { ev.preventDefault(); history.pushState(null, "", "/"); clearTimeout(S.timer); route(); });
  $("games").addEventListener("click", (ev) => {
    const a = ev.target.closest("a.game");
    if (!a) return;
    ev.preventDefault();
    history.pushState(null, "", a.getAttribute("href"));
    route();
  });
  window.addEventListener("popstate", route);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  route();
});
