// Share the night: the phone's share sheet where there is one (Web Share API), a copy button
// otherwise. Progressive enhancement: without JavaScript the text stays in its box, ready to select.
function status(message) {
  const line = document.querySelector("[data-share-status]");
  if (line) line.textContent = message;
}

function copy(box, button) {
  const done = () => status(button.dataset.copied || "");
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(box.value).then(done, () => box.select());
    return;
  }
  box.select();
  if (document.execCommand("copy")) done();
}

// the text is looked up at each tap: the live page swaps it for the server's as hands and
// payments change what is still owed (templates/table/settle.html)
for (const button of document.querySelectorAll("button[data-share]")) {
  if (!document.getElementById(button.dataset.share) || typeof navigator.share !== "function") continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    const box = document.getElementById(button.dataset.share);
    // a cancelled share sheet rejects: nothing to report
    if (box) navigator.share({ title: button.dataset.shareTitle, text: box.value }).catch(() => {});
  });
}
for (const button of document.querySelectorAll("button[data-copy-from]")) {
  if (!document.getElementById(button.dataset.copyFrom)) continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    const box = document.getElementById(button.dataset.copyFrom);
    if (box) copy(box, button);
  });
}
