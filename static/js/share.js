// Share the night: the phone's share sheet where there is one (Web Share API), a copy button
// otherwise. Progressive enhancement: without JavaScript the text stays in its box, ready to select.
(function () {
  "use strict";

  function status(message) {
    var line = document.querySelector("[data-share-status]");
    if (line) { line.textContent = message; }
  }

  function copy(box, button) {
    var done = function () { status(button.dataset.copied || ""); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(done, function () { box.select(); });
      return;
    }
    box.select();
    if (document.execCommand("copy")) { done(); }
  }

  // the text is looked up at each tap: the live page swaps it for the server's as hands and
  // payments change what is still owed (templates/table/settle.html)
  function setUp() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      if (!document.getElementById(button.dataset.share) || typeof navigator.share !== "function") { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        var box = document.getElementById(button.dataset.share);
        // a cancelled share sheet rejects: nothing to report
        if (box) { navigator.share({ title: button.dataset.shareTitle, text: box.value }).catch(function () {}); }
      });
    });
    document.querySelectorAll("button[data-copy-from]").forEach(function (button) {
      if (!document.getElementById(button.dataset.copyFrom)) { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        var box = document.getElementById(button.dataset.copyFrom);
        if (box) { copy(box, button); }
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
