// The one-time key of the form a page is (partials/request_key.html), kept in the page's address.
//
// With ?key=<the form's key> in the address, Back, a reload or a tab the phone brings back asks
// the server about this very key, and a form already saved answers "saved as hand 8" instead
// of a fresh form carrying the old taps (mighty_ledger/http/request_keys.py). A page the browser
// kept in memory (the back-forward cache) comes back without asking anyone: if its key was
// used meanwhile, it is loaded again, so the server says what became of it.
(function () {
  "use strict";

  // the keys the forms of this phone have sent, for every script that keeps a form (drafts.js,
  // queued_forms.js): a kept copy of a form must not send a used key as a new one
  var USED_KEYS = "used-keys";

  function usedKeys() {
    try { return JSON.parse(window.localStorage.getItem(USED_KEYS)) || []; } catch (error) { return []; }
  }

  function markUsed(key) {
    var used = usedKeys().filter(function (old) { return old !== key; });
    used.push(key);
    try { window.localStorage.setItem(USED_KEYS, JSON.stringify(used.slice(-100))); } catch (error) { /* storage off */ }
  }

  function show(key) {
    if (!key) { return; }
    var url = new URL(window.location.href);
    if (url.searchParams.get("key") === key) { return; }
    url.searchParams.set("key", key);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }

  var form = document.querySelector("form[data-key-in-url]");
  var field = form && form.querySelector("input[name='request_key']");
  window.MightyFormKey = { show: show, markUsed: markUsed, used: function (key) { return usedKeys().indexOf(key) >= 0; } };
  if (!field) { return; }

  show(field.value);
  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute("formaction")) { return; } // the preview saves nothing
    markUsed(field.value);
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && usedKeys().indexOf(field.value) >= 0) { window.location.reload(); }
  });
})();
