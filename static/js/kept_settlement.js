// Who pays whom, read without signal: the kept settle and payments pages tell the truth they have.
//
// A kept copy (sw.js) shows the settlement as the server drew it when the copy was made. It is
// still the truth when nothing came after it that this phone knows of: its revision (the
// session's, kept with it) is the kept scoreboard's, and no action of the session waits in the
// outbox. Otherwise the transfers are hidden and the page says plainly why: a hand waiting on this
// phone, a delete, a correction or a payment made here changes who pays whom, and only the server
// works that out (scoring/settle.py: the fewest transfers, the stakes, the rounding, the payments
// already made); a copy older than the kept scoreboard is missing the hands since. Transfers that
// are no longer owed are never offered, and nothing here computes money.
import * as outbox from "./outbox.js";
import * as stores from "./stores.js";

const root = document.documentElement;
const status = document.getElementById("app-status");
const place = outbox.here();
// the settle page or the payments page of a session (its totals or its card)
const shows = document.getElementById("settle-totals") ? "settle" : document.getElementById("payments") ? "payments" : "";
// what changes the scores once the server has it (a contract or a throw-in changes none): every
// list of who pays whom waits. A payment changes only what is still owed: the settle page's
// lists wait, while the payments card shows it pending on the very transfer (pending.js)
const CHANGES_SCORES = new Set(["hand", "event", "edit", "delete", "restore"]);
const PAYMENTS = new Set(["payment", "unpay"]);
const SETTLE_LISTS = "#settle-transfers, ul.transfers, #share";
const ALL_LISTS = `${SETTLE_LISTS}, [data-testid='payments-owed']`;
let hiding = null; // the lists hidden, once the page knows

async function boardRevision() {
  // the session's revision the kept scoreboard shows (sw.js keeps it beside the copy)
  const board = await stores.keptPage(place.board);
  const revision = board && board.headers.get(stores.REVISION);
  return revision ? Number(revision) : null;
}

function waitingHere(items, kinds) {
  return outbox.waiting(items, place.session).filter((item) => kinds.has(item.kind));
}

function hideTransfers() {
  if (!hiding) return;
  for (const list of document.querySelectorAll(hiding)) {
    if (list.dataset.waitsForServer !== undefined) continue;
    const shown = list.getClientRects().length > 0; // a list in a card not shown yet needs no note
    list.hidden = true;
    list.dataset.waitsForServer = "";
    if (!shown) continue;
    const note = document.createElement("p");
    note.className = "muted";
    note.dataset.testid = "transfers-wait";
    note.textContent = status.dataset.sayTransfersWait;
    list.insertAdjacentElement("beforebegin", note);
  }
}

function tell(waiting, older) {
  const say = status.dataset;
  const notice = document.getElementById("kept-settlement") || document.createElement("p");
  notice.id = "kept-settlement";
  notice.className = "notice";
  notice.setAttribute("role", "status");
  notice.dataset.testid = "kept-settlement";
  const lines = [];
  if (waiting.length) lines.push(say.sayNotCounted.replace("{count}", waiting.length));
  if (older) lines.push(say.sayOlderThanBoard);
  lines.push(say.sayTransfersLater);
  notice.textContent = lines.join(" ");
  const heading = document.querySelector("main h1");
  if (heading && !notice.isConnected) heading.insertAdjacentElement("afterend", notice);
}

async function check() {
  const own = root.dataset.offlineRevision ? Number(root.dataset.offlineRevision) : null;
  const [board, items] = await Promise.all([boardRevision(), outbox.items().catch(() => [])]);
  const scores = waitingHere(items, CHANGES_SCORES);
  const paid = waitingHere(items, PAYMENTS);
  // a copy of no known revision is trusted only as far as the board is unknown too
  const older = board !== null && (own === null || own < board);
  if (scores.length || older) {
    hiding = ALL_LISTS;
  } else if (paid.length && shows === "settle") {
    hiding = SETTLE_LISTS;
  } else {
    return;
  }
  tell([...scores, ...paid], older);
  hideTransfers();
}

if (root.dataset.offlineAsOf && place.session && shows && status) {
  check();
  document.addEventListener("outbox:changed", check);
  // the payments card arrives after the page where it loads itself: its lists too
  document.addEventListener("htmx:afterSwap", hideTransfers);
}
