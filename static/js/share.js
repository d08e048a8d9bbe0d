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

// one transfer of the settlement's list, to the payer alone: the share sheet, or a copy of its line
function copyText(text, button) {
  const done = () => status(button.dataset.copied || "");
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-share-line]");
  if (!button) return;
  const text = button.dataset.shareLine;
  if (typeof navigator.share === "function") navigator.share({ text }).catch(() => {});
  else copyText(text, button);
});

function showLineButtons() {
  const can = typeof navigator.share === "function" || (navigator.clipboard && window.isSecureContext);
  for (const button of document.querySelectorAll("button[data-share-line]")) button.hidden = !can;
}
showLineButtons();
// the list is drawn again as hands and payments change it (the live regions, htmx swaps)
document.addEventListener("htmx:afterSettle", showLineButtons);
document.addEventListener("live:updated", showLineButtons);
