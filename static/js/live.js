// The live table: a page of a session (or the group page) follows what the other phones do.
//
// The page names its stream, its revision and its live regions on one marker element
// (templates/partials/live.html). The stream only says *that* something changed and the
// new revision; the page then asks its own URL again, with the ETag it holds, and swaps
// its live regions for the fresh ones. The scoreboard names a URL of its own for that
// (data-live-fragments): its live regions alone, the same bytes for every phone on the
// link, cached once per revision; the parts of the page that carry this phone's form
// tokens are not asked for again, and a form in a fresh region gets the page's CSRF token.
// After a new hand the board's stream sends the hand's step inside the event (applyStep):
// a board that stood just before it applies it and asks for nothing. The same cheap conditional request (304 when
// nothing changed) runs when the page becomes visible again, every 30 s without a stream and
// every 2 minutes with one, so a phone that slept, lost the stream or has none at all still catches up.
// A board a Save landed on is shown from the phone at once (sw.js) and asks for what changed.
// Without JavaScript the page is an ordinary page: reloading shows the current state.
const POLL_MS = 30000; // the fallback's pace without a stream, or while it reconnects
// with the stream open its events bring every change: the poll only guards against a stream gone
// silently (a network that drops without a word), and every phone's poll is a request to the server
const POLL_LIVE_MS = 120000;
const REOPEN_MS = 5000; // after the server refused the stream (503, a restart): try again

const marker = document.querySelector("[data-live-stream]");
const streamUrl = (marker && marker.dataset.liveStream) || "";
const fragmentsUrl = (marker && marker.dataset.liveFragments) || "";
const regions = (marker && marker.dataset.liveRegions) || "main";
// "none": a form open under the player's thumb is never swapped; it is told of each change
// ("live:changed") and asks for what it shows itself (static/js/live_form.js)
const told = regions === "none";
let revision = (marker && marker.dataset.liveRevision) || "";
let etag = (marker && marker.dataset.liveEtag) || "";
let source = null;
let reopenTimer = null;
let busy = false;
let again = false;
let lastAsked = Date.now();
let hellos = 0; // one per (re)connection of the stream

function newer(seen) {
  // the group page has no revision of its own: every change of one of its sessions counts
  return seen === null || seen === undefined || revision === "" || String(seen) !== revision;
}

function updated() {
  document.dispatchEvent(new CustomEvent("live:updated", { detail: { revision } }));
}

// --- swapping the fresh page in -----------------------------------------------------------

function openDetails(root) {
  // a <details> the player opened stays open (by id, else by its summary's words)
  return new Set([...root.querySelectorAll("details[open]")].map(detailsKey));
}

function detailsKey(details) {
  const summary = details.querySelector("summary");
  return details.id || (summary ? summary.textContent.trim() : "");
}

function reopen(root, open) {
  root.querySelectorAll("details").forEach((details) => {
    if (open.has(detailsKey(details))) details.open = true;
  });
}

function typing(root) {
  const active = document.activeElement;
  return active && root.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) &&
    active.type !== "submit" && active.type !== "button";
}

function replace(current, fresh) {
  if (keepsUntilLoaded(current, fresh)) return;
  const open = openDetails(current);
  const notices = keptNotices(current);
  const adopted = document.importNode(fresh, true);
  current.replaceWith(adopted);
  reopen(adopted, open);
  carryNotices(adopted, notices);
  if (window.htmx) window.htmx.process(adopted);
}

function keptNotices(root) {
  // what a card says or asks about one player's own action (data-kept-notice: "already marked on
  // another phone", "record it anyway?") was drawn for this phone alone: a redraw for everyone,
  // arriving a moment later, must not take it away before it is read or answered
  return [...root.querySelectorAll("[data-kept-notice]")].map((notice) => {
    const holder = notice.parentElement.closest("[id]");
    return { notice, holder: holder ? holder.id : "" };
  });
}

function carryNotices(root, notices) {
  for (const { notice, holder } of notices) {
    const place = holder && (root.id === holder ? root : root.querySelector(`#${CSS.escape(holder)}`));
    if (!place || place.querySelector(`[data-testid='${notice.dataset.testid}']`)) continue;
    const heading = place.querySelector(":scope > h2, :scope > h3");
    if (heading) heading.after(notice);
    else place.prepend(notice);
  }
}

function keepsUntilLoaded(current, fresh) {
  // a part that loads itself (the chart's frame, drawn once in view) in place of the part it loaded:
  // the shown one stays where it is, and loads the fresh one in its own place when it is seen
  if (!fresh.hasAttribute("hx-get") || current.hasAttribute("hx-get") || !window.htmx) return false;
  for (const name of ["hx-get", "hx-trigger", "hx-swap"]) current.setAttribute(name, fresh.getAttribute(name));
  window.htmx.process(current);
  return true;
}

function withToken(root) {
  // the fragments carry no CSRF token (they are the same for every phone): this page's own goes in
  let token = "";
  try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch { /* none */ }
  if (!token) return;
  for (const form of root.querySelectorAll("form")) {
    if ((form.getAttribute("method") || "").toLowerCase() !== "post" || form.querySelector("[name=csrfmiddlewaretoken]")) continue;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.prepend(input);
  }
}

// --- what arrived: a new hand stands out for a moment and is said to a screen reader ---------

function handRows() {
  return [...document.querySelectorAll("#board-rows tr[id^='hand-']")];
}

function rowsShown() {
  // the hands on the board before a change, to tell the ones it brings (tellArrivals)
  return new Set(handRows().map((row) => row.id));
}

function saidOf(row) {
  // "Ann 15♦, made" from the row as drawn: the seat's full name, the contract, the outcome's words
  const what = row.querySelector("td.what");
  if (!what) return "";
  const who = what.querySelector(".who");
  if (!who) return what.textContent.trim(); // a deal miss, an all-pass
  const contract = who.nextElementSibling ? who.nextElementSibling.cloneNode(true) : null;
  const outcome = contract && contract.querySelector(".outcome");
  const outcomeLabel = outcome ? outcome.getAttribute("aria-label") : "";
  if (outcome) outcome.remove();
  return `${who.title || who.textContent.trim()} ${contract ? contract.textContent.trim() : ""}` +
    (outcomeLabel ? `, ${outcomeLabel}` : "");
}

function tellArrivals(before) {
  const news = document.getElementById("board-news");
  const said = [];
  for (const row of handRows()) {
    if (before.has(row.id)) continue;
    row.classList.add("arrived");
    if (news) {
      said.push(news.dataset.sayHand.replace("%(number)s", row.id.slice("hand-".length)).replace("%(what)s", saidOf(row)));
    }
  }
  if (news && said.length) news.textContent = said.join(" · ");
}

function swapFragments(html) {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const before = rowsShown();
  for (const region of fresh.querySelectorAll("[data-live-region]")) {
    const current = document.querySelector(`[data-live-region='${region.dataset.liveRegion}']`);
    if (!current || typing(current)) continue; // a region under a player's thumb waits for the next change
    withToken(region);
    replace(current, region);
  }
  tellArrivals(before);
  const freshMarker = fresh.querySelector("[data-live-fragments]");
  if (freshMarker) revision = freshMarker.dataset.liveRevision || "";
  updated();
  return true;
}

// --- a new hand's step, inside the event ----------------------------------------------------
// What the hand changed on the board (partials/board_step.html): its row, added to the rows, and
// the parts marked data-live-part, each replacing the page's part with its id. Applied only to
// the board as it stood just before the hand, and only whole: otherwise the regions are fetched.

function applyStep(step) {
  if (busy || String(step.from) !== revision) return false;
  const fresh = new DOMParser().parseFromString(step.html, "text/html");
  const stepMarker = fresh.querySelector("[data-live-step]");
  const rows = document.getElementById("board-rows");
  if (!stepMarker || !rows) return false;
  const parts = [...fresh.querySelectorAll("[data-live-part]")];
  const mine = parts.map((part) => document.getElementById(part.id));
  if (mine.some((part) => !part || typing(part))) return false;
  const before = rowsShown();
  parts.forEach((part, index) => {
    withToken(part);
    replace(mine[index], part);
  });
  // the new hand's row, after the slim row of any hands deleted just before it
  for (const row of fresh.querySelectorAll("[data-live-rows] > tr[id^='hand-'], [data-live-rows] > tr[id^='deleted-']")) {
    const shown = document.getElementById(row.id);
    if (shown) {
      replace(shown, row);
      continue;
    }
    const adopted = rows.appendChild(document.importNode(row, true));
    if (window.htmx) window.htmx.process(adopted);
  }
  tellArrivals(before);
  revision = stepMarker.dataset.liveRevision || revision;
  if (step.etag) etag = step.etag;
  lastAsked = Date.now(); // as up to date as a fetch would have made it: the poll waits its turn again
  updated();
  return true;
}

function swap(html) {
  if (fragmentsUrl) return swapFragments(html);
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const mine = regions === "main" ? [] : [...document.querySelectorAll(regions)];
  const theirs = regions === "main" ? [] : [...fresh.querySelectorAll(regions)];
  const main = document.querySelector("main");
  const freshMain = fresh.querySelector("main");
  if (mine.length && mine.length === theirs.length) {
    mine.forEach((region, index) => replace(region, theirs[index]));
  } else if (main && freshMain) {
    if (typing(main)) return false; // never under a player's thumb: next time
    const open = openDetails(main);
    const notices = keptNotices(main);
    main.replaceChildren(...[...freshMain.childNodes].map((node) => document.importNode(node, true)));
    reopen(main, open);
    carryNotices(main, notices);
    if (window.htmx) window.htmx.process(main);
  }
  const freshMarker = fresh.querySelector("[data-live-stream]");
  if (freshMarker) revision = freshMarker.dataset.liveRevision || "";
  if (fresh.title) document.title = fresh.title;
  updated();
  return true;
}

// --- asking the page again --------------------------------------------------------------

function refresh(seen, what) {
  if (told) {
    if (seen !== null && seen !== undefined) revision = String(seen);
    document.dispatchEvent(new CustomEvent("live:changed", { detail: { revision, what: what || "" } }));
    return;
  }
  if (!navigator.onLine) return; // the "online" event, visibility or the poll asks again
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  lastAsked = Date.now();
  const headers = etag ? { "If-None-Match": etag } : {};
  fetch(fragmentsUrl || window.location.pathname + window.location.search,
        { headers, cache: "no-store", credentials: "same-origin" })
    .then((response) => {
      if (response.status === 304) return null;
      if (response.status === 404) { // deleted meanwhile
        window.location.reload();
        return null;
      }
      if (!response.ok) return null; // rate-limited, a restart: the next event or poll asks again
      const tag = response.headers.get("ETag");
      return response.text().then((html) => {
        if (swap(html) && tag) etag = tag;
      });
    })
    .catch(() => { /* offline: the next event, visibility or poll asks again */ })
    .then(() => {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    });
}

// --- the stream -------------------------------------------------------------------------

function listen() {
  if (!streamUrl || typeof window.EventSource !== "function") return;
  if (source && source.readyState !== EventSource.CLOSED) return;
  source = new EventSource(streamUrl);
  // every (re)connection says the session's revision: a page that missed news catches up
  source.addEventListener("hello", (event) => {
    const hello = JSON.parse(event.data);
    hellos += 1;
    // the status line (app_status.js) says "online and live" while a stream is open
    document.dispatchEvent(new CustomEvent("live:open"));
    if (hello.revision !== undefined ? newer(hello.revision) : hellos > 1) {
      // a session page compares revisions; the group page, which has none, asks again after a gap
      refresh(hello.revision);
    }
  });
  source.addEventListener("change", (event) => {
    const change = JSON.parse(event.data);
    if (change.board && !told && fragmentsUrl && applyStep(change.board)) return;
    if (change.what === "resync" || newer(change.revision)) refresh(change.revision, change.what);
  });
  source.addEventListener("error", () => {
    document.dispatchEvent(new CustomEvent("live:closed"));
    // a dropped connection is retried by the browser itself; a refused one (404, 503) is closed
    if (source.readyState === EventSource.CLOSED && reopenTimer === null) {
      reopenTimer = window.setTimeout(() => {
        reopenTimer = null;
        listen();
      }, REOPEN_MS);
    }
  });
}

function follow() {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refresh();
    listen();
  });

  window.setInterval(() => {
    const pace = source && source.readyState === EventSource.OPEN ? POLL_LIVE_MS : POLL_MS;
    if (!told && document.visibilityState === "visible" && Date.now() - lastAsked >= pace - 1000) refresh();
  }, POLL_MS);

  window.addEventListener("pagehide", () => { if (source) source.close(); });
  window.addEventListener("pageshow", (event) => {
    // back to a page from the browser's back/forward cache: it may be minutes old
    if (event.persisted) {
      refresh();
      listen();
    }
  });

  // a change this phone made has landed (outbox.js), or the line is back: what changed, now
  document.addEventListener("live:refresh", () => refresh());
  window.addEventListener("online", () => refresh());
  listen();
  // a board shown from the phone as a Save landed on it (sw.js): what changed since, at once
  if (document.documentElement.hasAttribute("data-landed")) refresh();
}

if (marker) follow();
