// Where the app keeps things on the phone: each name once, for the pages and the service worker.
//
//   IndexedDB "mighty-ledger"   the outbox (outbox.js), and the hands the server numbered lately
//   localStorage "draft:<form>" the taps of a hand form not saved yet (drafts.js)
//   localStorage "used-keys"    the one-time keys this phone's forms have sent (form_key.js)
//   localStorage "mighty-ledger:me:<group>"  who this phone is in a group (me.js)
//   sessionStorage "back-tries" reloads of kept copies in a row (app_status.js)
//   sessionStorage "landing-rows" the waiting rows a Save drew over its board, for the board's load
//   Cache Storage "pages"       the pages kept for reading without signal (sw.js)
//   Cache Storage "static-<v>"  the app's files, one cache per version (sw.js)

export const DATABASE = "mighty-ledger";
export const OUTBOX = "outbox";
export const NUMBERED = "numbered";
export const USED_KEYS = "used-keys";
export const ME = "mighty-ledger:me:";
export const BACK_TRIES = "back-tries";
export const LANDING_ROWS = "landing-rows";
export const PAGES_CACHE = "pages";
export const STATIC_CACHE = "static-";
// a key in PAGES_CACHE: the group page /start opens offline
export const LAST_GROUP = "/last-group";
// a kept copy's headers: when it was read, and the session's revision it shows
export const STORED_AT = "X-Stored-At";
export const REVISION = "X-Revision";

export function draftName(formPath) {
  return `draft:${formPath}`;
}

export async function keptPage(path) {
  // the copy of a page the service worker keeps (sw.js), or null: none kept, or no Cache Storage
  // (a plain-http address keeps no pages)
  if (!globalThis.caches) return null;
  try {
    return (await caches.match(path, { cacheName: PAGES_CACHE })) || null;
  } catch {
    return null;
  }
}

function area(which) {
  try { return window[which]; } catch { return null; } // storage turned off
}

export function read(name, fallback = null, which = "localStorage") {
  const store = area(which);
  try {
    const value = store && JSON.parse(store.getItem(name));
    return value === null || value === undefined ? fallback : value;
  } catch {
    return fallback;
  }
}

export function write(name, value, which = "localStorage") {
  const store = area(which);
  if (!store) return;
  try {
    if (value === null) store.removeItem(name); else store.setItem(name, JSON.stringify(value));
  } catch { /* full, or turned off: the phone keeps nothing, the server still has what was sent */ }
}
