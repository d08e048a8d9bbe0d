// The hand form on a phone that may lose its connection or its page, and its Save.
//
// - Draft: every tap is kept on the phone and put back after a reload, a crash or the screen going
//   off, until the hand is saved or the player starts again.
// - Save: the hand goes into the outbox and the player onto the board, where it shows at once,
//   waiting until the server answers (saves.js `land`): online and offline alike. Its entry is the
//   one the form's last preview scored for these very taps (the server turns taps into HAND_JSON),
//   or, when the taps changed since, the one the form answers for them as it is sent.
//   A hand the preview refuses stays on the form, its problems beside their fields.
// - One-time key: the form's key goes with the draft and the Save; a Save sent again is saved once.
// - The same form records the contract (data-outbox="contract") and corrects a saved hand ("edit").
// - Opened from the board for what waits there: the result of a contract recorded on this phone
//   (#after=<id>), a hand the server refused (#fix=<id>), a correction another phone overtook
//   (#conflict=<id>: its taps at the version it was made on, so saving it shows the server's side by
//   side choice, the one Save that posts the form itself).
import * as keys from "./form_key.js";
import { dealsWaiting, nextAfter } from "./next_deal.js";
import * as outbox from "./outbox.js";
import { land, missing as requiredMissing, noticeLine } from "./saves.js";
import * as stores from "./stores.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const form = document.getElementById("hand-form");
const kind = form ? form.dataset.outbox : ""; // "hand", "contract" or "edit"
const draftName = form ? stores.draftName(form.getAttribute("action")) : "";
const keyField = form && form.querySelector("input[name='request_key']");
const preview = document.getElementById("preview");
const asked = new URLSearchParams(window.location.hash.slice(1)); // what the board opened it for
let after = null; // the contract recorded on this phone that this hand's result completes
let conflict = null; // the correction another phone overtook, opened again
let fixing = null; // the refused entry this form fixes
let restoring = false;
let filled = false; // taps were put back: the preview is asked for them
let saving = false;
let key;
let previewAsked = null; // the taps the preview on its way was asked for
let previewFor = null; // the taps the preview shown scored

// --- the form's taps, kept and put back -------------------------------------------------------

function fields() {
  // what the player entered: the taps, not the page's bookkeeping (token, version, counts)
  const kept = [];
  new FormData(form).forEach((value, name) => {
    const input = form.elements[name];
    const hidden = input && (input.type === "hidden" || (input[0] && input[0].type === "hidden"));
    if (!hidden && typeof value === "string") kept.push([name, value]);
  });
  return kept;
}

function changedBy(input) {
  // the pickers and labels of the form's own modules follow, as after a tap
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

function restore(taps, onlyThese) {
  // onlyThese: the fields the taps name, the rest left as the form has them (a contract's taps
  // leave the hand form's own defaults, such as whose points are counted)
  restoring = true;
  filled = true;
  const values = {};
  for (const [name, value] of taps) (values[name] = values[name] || []).push(value);
  for (const input of form.elements) {
    if (!input.name || ["hidden", "submit", "button"].includes(input.type)) continue;
    if (onlyThese && !(input.name in values)) continue;
    const given = values[input.name] || [];
    if (input.type === "radio" || input.type === "checkbox") {
      const checked = given.includes(input.value);
      if (input.checked === checked) continue;
      input.checked = checked;
    } else {
      const value = given.length ? given.shift() : "";
      if (input.value === value) continue;
      input.value = value;
    }
    changedBy(input);
  }
  restoring = false;
}

function keepDraft() {
  if (!restoring) stores.write(draftName, { fields: fields(), key, fixing, after, at: new Date().toISOString() });
}

function notice(message, withStartAgain, saveKept = false) {
  const box = noticeLine(form);
  box.replaceChildren(`${message} `);
  // a Save this form kept (what is missing, what the rules refuse), told apart from other news
  if (saveKept) box.dataset.saveKept = ""; else delete box.dataset.saveKept;
  if (!withStartAgain) return;
  const again = box.appendChild(document.createElement("button"));
  again.type = "button";
  again.className = "link-button";
  again.textContent = say.sayDropDraft;
  again.addEventListener("click", () => {
    stores.write(draftName, null);
    // a new form as the board opened it: the declarer tapped there (?declarer=Ann) stays
    window.location.replace(window.location.pathname + window.location.search);
  });
}

function useKey(chosen) {
  key = chosen;
  if (keyField) keyField.value = key;
  keys.show(key); // Back or a reload asks about this key
}

function forgetHash() {
  // what the address asked for is gone (sent or discarded meanwhile): the form is a new hand's
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return startFrom(stores.read(draftName));
}

async function startAfter(id) {
  // the result of a contract recorded on this phone: its taps are the hand's first half
  const contract = await outbox.item(id);
  if (!contract || contract.kind !== "contract") return forgetHash();
  after = contract.id;
  useKey(outbox.newKey());
  restore(contract.fields, true);
  keepDraft();
  notice(say.sayAfterContract, false);
}

async function startConflict(id) {
  const overtaken = await outbox.item(id);
  if (!overtaken) return forgetHash();
  conflict = overtaken.id;
  useKey(outbox.newKey());
  if (overtaken.fields) restore(overtaken.fields);
  // the version it was made on: the server shows what changed since
  if (form.elements.version && overtaken.version !== undefined) form.elements.version.value = overtaken.version;
  notice(say.sayConflictOpen + (overtaken.message ? ` ${overtaken.message}` : ""), false);
}

async function startFix(id) {
  const refused = await outbox.item(id);
  if (!refused) return forgetHash();
  fixing = refused.id;
  useKey(outbox.newKey()); // a new hand for the server: the refused one's key may be spent
  restore(refused.fields);
  keepDraft();
  notice(say.sayFixing + (refused.message ? ` ${refused.message}` : ""), true);
}

function start() {
  if (asked.has("after") && kind === "hand") return startAfter(Number(asked.get("after")));
  if (asked.has("conflict") && kind === "edit") return startConflict(Number(asked.get("conflict")));
  if (asked.has("fix")) return startFix(Number(asked.get("fix")));
  return startFrom(stores.read(draftName));
}

function startFrom(draft) {
  if (draft && draft.fields && draft.fields.length && !keys.used(draft.key)) {
    fixing = draft.fixing || null;
    after = draft.after || null;
    useKey(draft.key || outbox.newKey());
    restore(draft.fields);
    keepDraft();
    notice(say.sayRestored, true);
    return Promise.resolve();
  }
  stores.write(draftName, null); // a draft whose key was saved is that hand's, never the next one's
  const given = keyField && keyField.value;
  useKey(given && !keys.used(given) ? given : outbox.newKey());
  // a kept copy of the form, opened from the board's "who won the bid?" (?declarer=Ann)
  const declarer = new URLSearchParams(window.location.search).get("declarer");
  const seat = declarer && [...form.querySelectorAll("input[name='declarer']")].find((input) => input.value === declarer);
  if (seat && !seat.checked) {
    seat.checked = true;
    seat.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return kind === "edit" ? Promise.resolve() : dealerAfterWaiting();
}

// --- after what waits on this phone ------------------------------------------------------------

function waitingBefore(all) {
  // the deals this phone sends before this hand: a refused hand being fixed comes after those made before it
  return dealsWaiting(all, outbox.here().session).filter((entry) => !fixing || entry.id < fixing);
}

async function numberAfterWaiting() {
  // "Hand 8 (waiting to be sent)": the server numbers the deals waiting on this phone first, in
  // the order they were made, then this one; the number the page was drawn with knew none of them
  const title = form.querySelector("[data-hand-title]");
  if (!title || kind !== "hand") return;
  if (!title.dataset.drawnNumber) title.dataset.drawnNumber = (title.textContent.match(/\d+/) || [""])[0];
  const before = waitingBefore(await outbox.items().catch(() => []));
  const drawn = Number(title.dataset.drawnNumber);
  if (before.length && drawn) title.textContent = say.sayHandWaiting.replace("{number}", drawn + before.length);
}

async function dealerAfterWaiting() {
  // a form knows the dealer as the server said it when drawn: after the deals waiting on this
  // phone, the one the server will say (next_deal.js steps the table's flow rule)
  const next = nextAfter(await outbox.items().catch(() => []), outbox.here().session);
  if (!next) return;
  restoring = true; // the form's own answer, not a tap: no draft for it
  try {
    const seat = form.querySelector(`input[name='dealer'][value='${CSS.escape(next.dealer)}']`);
    if (seat && !seat.checked) {
      seat.checked = true;
      changedBy(seat);
    }
    // and who sits this one out, where the table has more seats than players
    for (const box of form.querySelectorAll("input[name='sitting_out']")) {
      const out = next.sitting_out.includes(box.value);
      if (box.checked !== out) {
        box.checked = out;
        changedBy(box);
      }
    }
  } finally {
    restoring = false;
  }
}

// --- the preview ----------------------------------------------------------------------------------

function previewWaits() {
  if (!preview) return;
  const heading = preview.querySelector("h2");
  const line = document.createElement("p");
  line.className = "muted";
  line.dataset.testid = "preview-offline";
  line.textContent = say.sayPreviewOffline;
  preview.replaceChildren(...(heading ? [heading, line] : [line]));
}

function scoredNow() {
  // the preview shown is of the taps on the form now: what it says of them holds
  const shown = document.getElementById("preview");
  return shown && previewFor === JSON.stringify(fields()) ? shown : null;
}

function previewedEntry() {
  const block = scoredNow() && document.getElementById("preview-entry");
  try { return block ? JSON.parse(block.textContent) : null; } catch { return null; }
}

// --- Save ----------------------------------------------------------------------------------------

function missing() {
  const labels = requiredMissing(form);
  // a called card's partner (or "declarer alone") is asked for before the hand waits offline,
  // as the server would ask once back online
  const call = form.querySelector("input[name='call_type']:checked");
  const partners = document.getElementById("field-partners");
  if (partners && call && (call.value === "card" || call.value === "first_trick") &&
      !form.querySelector("input[name='partners']:checked")) {
    const legend = partners.querySelector("legend");
    labels.push(legend ? legend.textContent.trim() : "partners");
  }
  return labels;
}

function problemsBesideFields() {
  // what is still empty, beside each field in the server's words (a called card with no partner: a
  // secret solo?), as the form's own Save once showed it: the preview is asked "as a Save" until
  // the player's next tap (pages/views/hands.py hand_preview)
  if (!navigator.onLine || !window.htmx) return;
  if (!form.querySelector("input[name='saving']")) {
    const flag = form.appendChild(document.createElement("input"));
    Object.assign(flag, { type: "hidden", name: "saving", value: "1" });
  }
  window.htmx.trigger(form, "change");
}

function checkedLabel(name) {
  const input = form.querySelector(`input[name='${name}']:checked`);
  const label = input && form.querySelector(`label[for='${input.id}']`);
  return label ? label.textContent.trim() : input ? input.value : "";
}

function entryOf(dealsBefore) {
  // what this Save writes; a new hand says the number it meant (its form's, after the deals
  // waiting before it on this phone, which the server numbers first) and the hands it had seen
  const contract = form.elements.contract_points;
  const drawn = form.elements.number && Number(form.elements.number.value);
  const entry = {
    kind, key, fields: fields(), entryUrl: form.dataset.entryUrl, questionUrl: form.dataset.nextUrl,
    resultUrl: form.dataset.resultUrl, // a contract's: the form its result is entered on
    // opened from the hand in progress: saving completes it (mighty_ledger/pages/views/in_progress.py)
    inProgress: (form.elements.in_progress && form.elements.in_progress.value) || "",
    summary: {
      declarer: (form.querySelector("input[name='declarer']:checked") || {}).value || "",
      contract: ((contract && contract.value) || "") + checkedLabel("contract_trump"),
    },
  };
  const previewed = kind !== "contract" && previewedEntry();
  if (previewed) entry.entry = previewed;
  if (kind === "hand" && drawn) {
    entry.meant = drawn + dealsBefore;
    const seen = form.elements.seen_hand_count && form.elements.seen_hand_count.value;
    if (seen !== undefined && seen !== "") entry.seen = Number(seen);
  }
  if (kind === "edit") {
    entry.number = Number(form.dataset.number);
    entry.version = Number(form.elements.version.value);
  }
  if (after) entry.after = after;
  return entry;
}

async function save() {
  const empty = missing();
  if (empty.length) {
    notice(say.sayMissing.replace("{fields}", empty.join(", ")), false, true);
    problemsBesideFields();
    return;
  }
  const shown = scoredNow();
  if (shown && shown.dataset.previewState === "problems") {
    notice(say.sayProblems, false, true); // beside their fields, as the preview drew them
    return;
  }
  const all = await outbox.items().catch(() => []);
  const entry = entryOf(waitingBefore(all).length);
  if (fixing) await outbox.discard(fixing);
  await land(entry, form, () => stores.write(draftName, null));
}

function submitted(event) {
  const submitter = event.submitter;
  if (submitter && submitter.hasAttribute("formaction")) { // the preview button, without JavaScript
    if (!navigator.onLine) {
      event.preventDefault();
      previewWaits();
    }
    return;
  }
  if (conflict !== null || "overtaken" in form.dataset) {
    // a correction another phone overtook (the board's, or the live form's news): posted at its old
    // version, the server answers with both side by side to choose from (nothing is saved by it)
    if (conflict !== null) outbox.discard(conflict);
    return;
  }
  event.preventDefault();
  if (saving) return; // a second tap while the first is written
  saving = true;
  save().finally(() => { saving = false; });
}

function askPreview() {
  // taps put back before htmx had read the page fired their events to no one: asked once it has
  const ask = () => {
    if (!window.htmx || !navigator.onLine) return;
    restoring = true; // the form's own event, not a tap: the draft stays as it is
    window.htmx.trigger(form, "change");
    restoring = false;
  };
  // (htmx reads it on DOMContentLoaded, which follows the page's modules: "load" is after both)
  if (document.readyState === "complete") ask(); else window.addEventListener("load", ask, { once: true });
}

function keepTheForm() {
  form.addEventListener("submit", submitted);
  form.addEventListener("input", keepDraft);
  form.addEventListener("change", keepDraft);
  form.addEventListener("htmx:beforeRequest", (event) => {
    // htmx asks the server for the preview: offline there is no one to ask
    if (!navigator.onLine) {
      event.preventDefault();
      previewWaits();
      return;
    }
    previewAsked = JSON.stringify(fields());
  });
  form.addEventListener("htmx:afterSwap", () => {
    previewFor = previewAsked;
    // the preview shown is of the taps on the form (a player, or a test, may wait for it)
    if (previewFor === JSON.stringify(fields())) form.dataset.previewCurrent = "";
  });
  form.addEventListener("input", () => {
    delete form.dataset.previewCurrent;
    form.querySelector("input[name='saving']")?.remove(); // a tap: the preview lists what is missing again
  });
  form.addEventListener("htmx:sendError", previewWaits);
  start().then(() => {
    if (!navigator.onLine) previewWaits(); else if (filled) askPreview();
    return numberAfterWaiting();
  });
}

if (status && form && kind) keepTheForm();
