// Pay in one tap (templates/partials/pay_buttons.html): copy the amount, or the payee's bank,
// account number and amount as a banking app reads a pasted transfer; after the payer's app
// was opened, the transfer's "Mark as paid" is the next tap. Progressive enhancement: without
// JavaScript the copy buttons stay hidden and their texts stay on the page, ready to select.
function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const box = document.createElement("textarea");
  box.value = text;
  box.setAttribute("readonly", "");
  box.className = "pay-copy-box";
  document.body.appendChild(box);
  box.select();
  const copied = document.execCommand("copy");
  box.remove();
  return copied ? Promise.resolve() : Promise.reject(new Error("copy refused"));
}

function status(block, message) {
  const line = block && block.querySelector("[data-pay-status]");
  if (line) line.textContent = message;
}

function ready(block) {
  // the payer went to their app: what is left is to say it is paid
  const then = block && block.querySelector("[data-pay-then]");
  if (then) then.classList.add("pay-next");
}

// one listener for the document: the live page swaps the lists as hands and payments change
// what is still owed, and "this phone is me" draws its own copy of the buttons
document.addEventListener("click", (event) => {
  const target = event.target.closest ? event.target.closest("[data-pay-copy], [data-pay-opens]") : null;
  if (!target) return;
  const block = target.closest("[data-pay]");
  if (target.hasAttribute("data-pay-opens")) {
    ready(block);
    return;
  }
  copyText(target.dataset.payCopy).then(() => {
    status(block, target.dataset.copied || "");
    if (target.closest("[data-pay-kind='account']")) ready(block);
  }, () => status(block, ""));
});

function show() {
  document.querySelectorAll("button[data-pay-copy]").forEach((button) => { button.hidden = false; });
}

document.addEventListener("htmx:afterSettle", show);
document.addEventListener("live:updated", show);
show(); // a module runs once the page is parsed
