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

  function setUp() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      var box = document.getElementById(button.dataset.share);
      if (!box || typeof navigator.share !== "function") { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        // a cancelled share sheet rejects: nothing to report
        navigator.share({ title: button.dataset.shareTitle, text: box.value }).catch(function () {});
      });
    });
    document.querySelectorAll("button[data-copy-from]").forEach(function (button) {
      var box = document.getElementById(button.dataset.copyFrom);
      if (!box) { return; }
      button.hidden = false;
      button.addEventListener("click", function () { copy(box, button); });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
