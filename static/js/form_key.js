// The one-time key of the form a page is (partials/request_key.html), kept in the page's address.
//
// With ?key=<the form's key> in the address, Back, a reload or a tab the phone brings back asks
// the server about this very key, and a form already saved answers "saved as hand 8" instead
// of a fresh form carrying the old taps (mighty_ledger/http/request_keys.py). A page the browser
// kept in memory (the back-forward cache) comes back without asking anyone: if its key was
// used meanwhile, it is loaded again, so the server says what became of it.
//
// The keys the forms of this phone have sent are kept here for every module that keeps a form
// (drafts.js, saves.js): a kept copy of a form must not send a used key as a new one.
import * as stores from "./stores.js";

export function markUsed(key) {
  const used = stores.read(stores.USED_KEYS, []).filter((old) => old !== key);
  used.push(key);
  stores.write(stores.USED_KEYS, used.slice(-100));
}

export function used(key) {
  return stores.read(stores.USED_KEYS, []).includes(key);
}

export function show(key) {
  if (!key) return;
  const url = new URL(window.location.href);
  if (url.searchParams.get("key") === key) return;
  url.searchParams.set("key", key);
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
}

const form = document.querySelector("form[data-key-in-url]");
const field = form && form.querySelector("input[name='request_key']");

if (field) {
  show(field.value);
  form.addEventListener("submit", (event) => {
    const submitter = event.submitter;
    if (submitter && submitter.hasAttribute("formaction")) return; // the preview saves nothing
    // a form that posts itself; a Save the outbox takes is marked when it is kept (saves.js)
    window.setTimeout(() => { if (!event.defaultPrevented) markUsed(field.value); }, 0);
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && used(field.value)) window.location.reload();
  });
}
