// Save, for every form that writes at the table: one road, online or not. The write goes into the
// outbox (outbox.js), which sends it at once; the phone shows it where it lands at once, waiting
// until the server answers (pending.js): the board for a hand, a deal miss, a correction or a
// deletion, the payments card for a payment. Without JavaScript the forms post as plain forms.
//
// Each form says what it writes, as Django drew it: data-outbox="event" (a deal miss or an
// all-pass), "edit" (a deal miss corrected), "delete", "restore" (data-number), "abandon"
// (data-contract), "payment", "unpay" (data-payment). The hand form's own Save is drafts.js's, which
// hands its entry to `land` below.
import * as keys from "./form_key.js";
import { lastTouching, nextAfter } from "./next_deal.js";
import * as outbox from "./outbox.js";
import { redraw } from "./pending.js";
import * as stores from "./stores.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const STAYS = new Set(["payment", "unpay", "abandon"]); // marked on the page where they were made
// the board drawn in place at a Save is on the screen some 40 to 80 ms after the tap (make bench,
// save); the page waits for that before it goes, this long at most
const DRAWN_WITHIN_MS = 5000;

const pause = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });
let goingBy = null; // the last Save that takes the page to where it lands

export function noticeLine(form) {
  // a form's one line of news from this phone (a draft brought back, what is missing, a Save kept),
  // drawn in the form's save bar where it moves none of the form's rows
  const box = form.querySelector("[data-draft-notice]") ||
    form.insertAdjacentElement("afterbegin", document.createElement("div"));
  box.className = "draft-notice";
  box.dataset.draftNotice = "";
  box.dataset.testid = "draft-notice";
  box.setAttribute("role", "status");
  return box;
}

function value(form, name) {
  const field = form.elements[name]; // a row of radio buttons is a RadioNodeList: its value is the one ticked
  if (!field) return "";
  if (field.type === "radio" || field.type === "checkbox") return field.checked ? field.value : "";
  return field.value || "";
}

export function missing(form) {
  // the fields the form marks required (Django writes `required`) that are still empty, by label
  const absent = [];
  for (const input of form.querySelectorAll("[required]")) {
    if (value(form, input.name)) continue;
    const fieldset = input.closest("fieldset");
    const label = (fieldset && fieldset.querySelector("legend")) || form.querySelector(`label[for='${input.id}']`);
    const text = label ? label.textContent.trim() : input.name;
    if (!absent.includes(text)) absent.push(text);
  }
  return absent;
}

function eventEntry(form, kind) {
  // EventForm.entry(): the dealer; for a deal miss who showed the hand and the fine
  const entry = { kind, dealer: value(form, "dealer") };
  if (kind === "deal_miss") {
    if (value(form, "shown_by")) entry.shown_by = value(form, "shown_by");
    if (value(form, "fine") !== "") entry.fine = Number(value(form, "fine"));
  }
  return entry;
}

function formKey(form) {
  // the form's one-time key, unless a kept copy of it was already sent with it
  const key = value(form, "request_key");
  return !key || keys.used(key) ? outbox.newKey() : key;
}

function versionOf(form) {
  const version = value(form, "version");
  return version === "" ? null : Number(version);
}

// what each form writes: the entry, from its fields and the data attributes Django drew
const MAKERS = {
  event: (form) => {
    const kind = value(form, "kind") || "deal_miss";
    return { kind: "event", eventKind: kind, key: formKey(form), entry: eventEntry(form, kind) };
  },
  edit: (form) => {
    const made = { kind: "edit", number: Number(form.dataset.number), version: versionOf(form) };
    if (form.dataset.entryUrl) {
      // a hand's correction kept over another phone's (partials/edit_conflict.html): its taps, as
      // the hand form would send them; the edit form's draft is done with
      stores.write(stores.draftName(form.getAttribute("action")), null);
      const taps = [...new FormData(form)].filter(([name]) => !["csrfmiddlewaretoken", "version"].includes(name));
      return { ...made, fields: taps, entryUrl: form.dataset.entryUrl };
    }
    const entry = eventEntry(form, value(form, "kind"));
    delete entry.kind;
    return { ...made, entry };
  },
  abandon: (form) => ({ kind: "abandon", inProgress: form.dataset.contract, contractVersion: versionOf(form) }),
  delete: (form) => ({ kind: "delete", number: Number(form.dataset.number), version: versionOf(form) }),
  restore: (form) => ({ kind: "restore", number: Number(form.dataset.number), version: versionOf(form) }),
  payment: (form) => {
    const entry = { from: value(form, "payer"), to: value(form, "payee"), amount: value(form, "amount") };
    if (value(form, "overpay") === "1") entry.overpay = true;
    // how the card wrote the amount, and the payments it knew of (the server's question, if asked)
    return { kind: "payment", key: value(form, "request_key") || outbox.newKey(), entry,
             amountText: form.dataset.amountText || "", drawnAfter: value(form, "drawn_after") };
  },
  unpay: (form) => ({ kind: "unpay", payment: Number(form.dataset.payment) }),
};

function workerLanding(path) {
  // the service worker shows the board it keeps at once, rather than wait for the network: the
  // page then fetches what changed (live.js). Told first, and answered, so it knows in time
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = window.setTimeout(resolve, 150);
    channel.port1.onmessage = () => {
      window.clearTimeout(timer);
      resolve();
    };
    worker.postMessage({ type: "landing", path }, [channel.port2]);
  });
}

async function keptBoard(path) {
  // the board this phone keeps, read while the Save is written: null if none is kept
  const kept = await stores.keptPage(path);
  return kept ? kept.text().catch(() => null) : null;
}

function showBoard(html, place) {
  // drawn in place with the Save waiting on it, while the page goes there: the player sees the
  // hand on the board at once, not after a page load (make bench, save: 65 ms from the tap at
  // 300 ms round trip, 249 ms through the board's load); the board's own load then takes its place.
  // Parsed once the Save is on its way, which would wait for the parse otherwise
  if (!html) return null;
  const board = new DOMParser().parseFromString(html, "text/html");
  document.title = board.title;
  document.body.replaceWith(document.adoptNode(board.body));
  window.scrollTo(0, 0);
  return redraw().then(() => {
    // the board's own load shows these rows again before it reads the outbox (pending.js)
    const rows = document.getElementById("outbox-rows");
    if (rows) stores.write(stores.LANDING_ROWS, { board: place.board, rows: rows.outerHTML, at: Date.now() }, "sessionStorage");
  });
}

function notKept(entry, form) {
  // the phone's storage would not keep the write (full, or closed to this page): with signal the
  // form posts itself, as it does without JavaScript, under its request key (the server keeps it
  // once, however often it is sent); without, the player is told, and the taps stay on the form
  if (navigator.onLine && form.getAttribute("action")) {
    if (entry.key) keys.markUsed(entry.key);
    form.submit();
    return;
  }
  const line = noticeLine(form);
  line.textContent = say.sayNotKept;
  line.dataset.saveKept = "";
}

export async function land(entry, form, kept = () => {}) {
  // the write is kept and on its way; the player goes where it shows, at once (``kept`` runs once
  // the outbox holds it: what the page held of it, a draft, may go then)
  const place = outbox.here();
  Object.assign(entry, { session: place.session, token: place.token, api: place.api, board: place.board,
                         formUrl: form.getAttribute("action"), page: window.location.pathname });
  const leaves = !STAYS.has(entry.kind) && window.location.pathname !== place.board;
  // a page without a service worker cannot open the board without signal: it says so and stays
  const canLeave = leaves && (navigator.onLine || (navigator.serviceWorker && navigator.serviceWorker.controller));
  // a tap on the board drawn in place may come before this page goes: a link (the next hand) takes
  // the page where it leads, not under the board's load; a write (a restore) goes there itself,
  // once it is kept, and this one's going is then its own
  let elsewhere = false;
  const goingElsewhere = () => { elsewhere = true; };
  const going = {};
  const goingBefore = goingBy;
  if (canLeave) {
    window.addEventListener("beforeunload", goingElsewhere);
    goingBy = going;
  }
  const departed = outbox.departed();
  // the service worker is told where the player goes while the write is kept
  const told = canLeave ? workerLanding(place.board) : Promise.resolve();
  const board = canLeave ? keptBoard(place.board) : null;
  try {
    if (entry.number && !entry.after) {
      // after a delete, restore or correction of the same hand still waiting: its answer's version
      const last = lastTouching(await outbox.items(), place.session, entry.number);
      if (last) entry.after = last.id;
    }
    await outbox.queue(entry, { leaving: canLeave });
  } catch {
    window.removeEventListener("beforeunload", goingElsewhere);
    if (goingBy === going) goingBy = goingBefore;
    notKept(entry, form);
    return;
  }
  // (told once kept: the answer that the write is stored comes after this, never before)
  if (canLeave) document.dispatchEvent(new CustomEvent("outbox:leaving"));
  if (entry.key) keys.markUsed(entry.key);
  kept();
  if (canLeave) {
    // the write leaves first, by a request that outlives this page; the board then shows it at once
    // (a board that cannot be drawn here is only shown later, by its own load). The page goes even
    // when drawing it never ends (a kept copy the phone's storage does not give back): the write is
    // kept, and the Save must not stay on its form with nothing said
    const drawn = Promise.all([board, departed]).then(([copy]) => showBoard(copy, place)).catch(() => {});
    await Promise.all([told, Promise.race([drawn, pause(DRAWN_WITHIN_MS)])]);
    window.removeEventListener("beforeunload", goingElsewhere);
    if (!elsewhere && goingBy === going) window.location.assign(place.board);
  } else if (leaves) {
    noticeLine(form).textContent = say.sayQueued;
  }
}

function submitted(event) {
  const form = event.target;
  const make = form instanceof HTMLFormElement && MAKERS[form.dataset.outbox];
  if (!make || form.id === "hand-form" || !outbox.here().session) return;
  // in the capture phase: neither the browser nor htmx posts it
  event.preventDefault();
  event.stopPropagation();
  const absent = missing(form);
  if (absent.length) {
    const line = noticeLine(form);
    line.textContent = say.sayMissing.replace("{fields}", absent.join(", "));
    line.dataset.saveKept = "";
    return;
  }
  if (form.dataset.saving) return; // a second tap while the first is written
  form.dataset.saving = "";
  const fixed = Number(form.dataset.fixing);
  (fixed ? outbox.discard(fixed) : Promise.resolve()).then(() => land(make(form), form))
    .finally(() => { delete form.dataset.saving; });
}

// --- the deal-miss form ------------------------------------------------------------------------

function dealerAfterWaiting(form) {
  // a new deal miss names the dealer the server named when the form was drawn: after the deals
  // waiting here, the one the server will name (next_deal.js steps the table's flow rule)
  outbox.items().then((all) => {
    const next = nextAfter(all, outbox.here().session);
    const seat = next && form.querySelector(`input[name='dealer'][value='${CSS.escape(next.dealer)}']`);
    if (seat) seat.checked = true;
  }, () => {});
}

function openAgain(form) {
  // the board's Fix of a refused deal miss (#fix=<id>): its values and the server's reason, to save
  // again; a correction another phone overtook (#conflict=<id>): this phone's values at the version
  // they were made on, posted as they are so that the server shows what the hand is now
  const asked = new URLSearchParams(window.location.hash.slice(1));
  const id = Number(asked.get("fix") || asked.get("conflict"));
  if (!id) return;
  outbox.item(id).then((kept) => {
    if (!kept || (kept.kind !== "edit" && kept.kind !== "event")) return;
    for (const [name, value] of Object.entries(kept.entry)) {
      const field = form.elements[name];
      if (field && field.length && !field.tagName) {
        for (const input of field) input.checked = input.value === String(value);
      } else if (field) {
        field.value = value === null ? "" : value;
      }
    }
    if (form.elements.version && kept.version !== undefined) form.elements.version.value = kept.version;
    const fixing = asked.has("fix");
    noticeLine(form).textContent = fixing ? say.sayFixing + (kept.message ? ` ${kept.message}` : "") : say.sayConflictOpen;
    if (fixing) {
      form.dataset.fixing = kept.id; // the refused one goes once its fix is kept
    } else {
      delete form.dataset.outbox; // posted as a plain form: the server's answer is the page
      form.addEventListener("submit", () => outbox.discard(kept.id), { once: true });
    }
  }, () => {});
}

if (status) {
  document.addEventListener("submit", submitted, true);
  const eventForm = document.getElementById("event-form");
  if (eventForm) {
    if (eventForm.dataset.outbox === "event") dealerAfterWaiting(eventForm);
    openAgain(eventForm);
  }
}
