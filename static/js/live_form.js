// A hand form (or the contract's form, its first half) left open follows the table: when another
// phone saves a hand, edits or deletes one, or records the contract, the form's hand number,
// dealer and seating move at once, with one line saying what happened, before the player taps
// Save. A correction of a saved hand left open only says that another phone changed that hand
// (Save then shows both side by side).
//
// The session's event stream (live.js, told with regions "none") says only that something
// changed; the form then asks the server for the coming hand (GET hands/next/, the
// partials/next_hand.html fragment: the engine's table flow, never a second copy of it here).
// The player's taps stay: only the number, and the dealer and who sits out while the player has
// not corrected them, move. The form's seen_hand_count moves with them only until the first tap:
// a hand saved meanwhile after that might be the very hand being entered, so Save still asks
// (partials/meanwhile_notice.html) rather than quietly adding a second copy.
(function () {
  "use strict";

  var form = document.getElementById("hand-form");
  if (!form || !form.dataset.nextUrl || typeof window.fetch !== "function") { return; }
  var notice = document.getElementById("live-form-notice");
  var title = form.querySelector("[data-hand-title]");
  var seen = form.elements.seen_hand_count;
  var inProgress = form.elements.in_progress;
  var busy = false;
  var contractChanged = false; // a contract was recorded, completed or thrown in since the last ask
  var leaving = false; // saved: this phone's own hand is on its way, and the page with it
  var again = false;
  var tapped = false;
  var playing = null; // the contract being played, as last heard (null: not asked yet)
  // the hand the form is for: its title says it (the hand form), or the form (the contract's)
  var number = title ? (title.textContent.match(/\d+/) || [""])[0] : (form.dataset.shownNumber || "");

  function checked(name) {
    return Array.prototype.filter.call(form.querySelectorAll("input[name='" + name + "']"), function (input) {
      return input.checked;
    }).map(function (input) { return input.value; });
  }

  // what the server last gave for the dealer and who sits out: moved only while still as given
  var given = { dealer: checked("dealer").join(), sittingOut: checked("sitting_out").sort().join() };

  function untouched() {
    return checked("dealer").join() === given.dealer && checked("sitting_out").sort().join() === given.sittingOut;
  }

  function tick(name, values) {
    form.querySelectorAll("input[name='" + name + "']").forEach(function (input) {
      input.checked = values.indexOf(input.value) >= 0;
    });
  }

  function moveSeating(dealer, sittingOut) {
    var boxes = form.querySelectorAll("input[name='sitting_out']");
    var seatingMoved = boxes.length && checked("sitting_out").sort().join() !== sittingOut.slice().sort().join();
    if (seatingMoved) {
      tick("sitting_out", sittingOut);
      var names = form.querySelector("[data-sitting-out-names]");
      if (names) { names.textContent = sittingOut.join(", "); }
    }
    var dealerRadio = dealer && form.querySelector("input[name='dealer'][value='" + CSS.escape(dealer) + "']");
    // one event, as after one tap: hand_form.js redraws the dealer's line, the preview (htmx) and
    // the kept draft (drafts.js) follow
    if (dealerRadio && !dealerRadio.checked) {
      dealerRadio.checked = true;
      dealerRadio.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (seatingMoved) {
      boxes[0].dispatchEvent(new Event("input", { bubbles: true }));
    }
    given = { dealer: checked("dealer").join(), sittingOut: checked("sitting_out").sort().join() };
  }

  function say(text) {
    if (!notice || !text) { return; }
    notice.textContent = text;
    notice.hidden = false;
  }

  function apply(next) {
    var data = next.dataset;
    var titleText = next.querySelector("[data-title]");
    var line = next.querySelector("[data-notice]");
    if ("editing" in data) { // a correction: its number and dealer are the hand's own; it is only told
      say(line ? line.textContent.replace(/\s+/g, " ").trim() : "");
      return;
    }
    if (data.number !== number) {
      number = data.number;
      if (title && titleText) { title.textContent = titleText.textContent.trim(); }
    }
    if (untouched()) { moveSeating(data.dealer, JSON.parse(data.sittingOut || "[]")); }
    // before the first tap, the hand saved meanwhile cannot be the one being entered here
    // (a draft put back, or a form the server sent back, was tapped before)
    if (form.querySelector("[data-draft-notice]") || form.hasAttribute("data-sent-back")) { tapped = true; }
    if (!tapped && seen && data.handCount) { seen.value = data.handCount; }
    playing = data.playing || "";
    say(line ? line.textContent.replace(/\s+/g, " ").trim() : "");
  }

  function ask(event) {
    var what = (event && event.detail && event.detail.what) || "";
    if (what === "contract_changed") { contractChanged = true; }
    if (leaving) { return; }
    if (busy) { again = true; return; }
    busy = true;
    var url = new URL(form.dataset.nextUrl, window.location.href);
    if (form.dataset.editing) {
      url.searchParams.set("editing", form.dataset.editing);
      url.searchParams.set("version", (form.elements.version && form.elements.version.value) || "");
    }
    url.searchParams.set("shown", number);
    url.searchParams.set("dealer", given.dealer);
    if (inProgress && inProgress.value) { url.searchParams.set("in_progress", inProgress.value); }
    if (playing !== null) { url.searchParams.set("playing", playing); }
    if (contractChanged) { url.searchParams.set("what", "contract_changed"); }
    contractChanged = false;
    fetch(url.pathname + url.search, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { return null; } // a restart, a deleted session: the next change asks again
        return response.text().then(function (html) {
          var next = new DOMParser().parseFromString(html, "text/html").getElementById("next-hand");
          if (next && !leaving) { apply(next); }
        });
      })
      .catch(function () { /* offline: the outbox and drafts.js have the form; the next change asks */ })
      .then(function () {
        busy = false;
        if (again) { again = false; ask(); }
      });
  }

  // a tap by the player: a script's own events (this one's, drafts.js's) are not trusted
  form.addEventListener("input", function (event) { if (event.isTrusted) { tapped = true; } });
  form.addEventListener("change", function (event) { if (event.isTrusted) { tapped = true; } });

  // the stream tells of this phone's own save too, while the page is leaving: the form stays as sent
  form.addEventListener("submit", function (event) {
    leaving = true;
    // a Save drafts.js held back (a field still empty, offline) leaves the page where it is
    window.setTimeout(function () { if (event.defaultPrevented) { leaving = false; } }, 0);
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) { leaving = false; } });

  document.addEventListener("live:changed", ask);
})();
