// The hand form, for one thumb: numbers picked from a row of likely values,
// the common calls labelled with the card they are under the chosen trump, and
// the dealer's line following its buttons. Without this script the rows stay
// hidden and every number is typed; the form posts the same fields either way.

const form = document.getElementById("hand-form");

function pressed(row) {
  const input = document.getElementById(row.dataset.picksFor);
  for (const button of row.querySelectorAll("[data-value]")) {
    button.setAttribute("aria-pressed", String(button.dataset.value === input.value));
  }
}

// points: the values either side of what the counting team needed
function drawAround(row) {
  const total = Number(row.dataset.picksAround);
  const contract = Number(document.getElementById("id_contract_points").value);
  const defenders = form.querySelector("input[name=points_side][value=defenders]:checked");
  const centre = defenders ? total - contract : contract;
  const low = Math.max(0, Math.min(centre - 3, total - 6));
  for (const old of row.querySelectorAll("[data-value]")) old.remove();
  const input = document.getElementById(row.dataset.picksFor);
  for (let value = low; value <= Math.min(low + 6, total); value += 1) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pick-value";
    button.dataset.value = String(value);
    button.textContent = String(value);
    row.insertBefore(button, input.previousElementSibling);
  }
  pressed(row);
}

function roleCards() {
  const picker = document.getElementById("field-call_pick");
  if (!picker) return;
  const cards = JSON.parse(picker.dataset.roleCards || "{}");
  const trump = form.querySelector("input[name=contract_trump]:checked");
  for (const small of picker.querySelectorAll("[data-role-card]")) {
    const card = trump && cards[small.dataset.roleCard] ? cards[small.dataset.roleCard][trump.value] : "";
    small.textContent = card ? ` ${card}` : "";
  }
}

const SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// the card the picker names now: a common call under the chosen trump, or a suit and a rank
function calledCard() {
  const call = form.querySelector("input[name=call_type]:checked");
  const pick = form.querySelector("input[name=call_pick]:checked");
  if (!pick || (call && call.value !== "card")) return "";
  if (SIGNS[pick.value]) {
    const rank = form.querySelector("input[name=call_rank]:checked");
    return rank ? SIGNS[pick.value] + rank.value : "";
  }
  if (pick.value === "joker") return pick.closest("label").textContent.trim();
  const picker = document.getElementById("field-call_pick");
  const cards = JSON.parse(picker.dataset.roleCards || "{}");
  const trump = form.querySelector("input[name=contract_trump]:checked");
  return trump && cards[pick.value] ? cards[pick.value][trump.value] || "" : "";
}

function partnerQuestion() {
  const card = calledCard();
  for (const hint of form.querySelectorAll("[data-called-hint]")) {
    hint.textContent = card ? hint.dataset.calledHint.replace("{card}", card) : "";
    hint.hidden = !card;
  }
}

function dealerLine() {
  const dealer = form.querySelector("input[name=dealer]:checked");
  const name = form.querySelector("[data-dealer-name]");
  if (dealer && name) name.textContent = dealer.value;
}

// where the seat that deals sits the hand out (pagat's six players, 변형 6마), the seat ticked as
// sitting out moves with the dealer, so changing the dealer never leaves the old one ticked
let dealerWas = form && (form.querySelector("input[name=dealer]:checked") || {}).value;

function sittingOutFollowsDealer() {
  const dealer = form.querySelector("input[name=dealer]:checked");
  if (!("dealerSitsOut" in form.dataset) || !dealer) return;
  for (const box of form.querySelectorAll("input[name=sitting_out]")) {
    if (box.value === dealerWas) box.checked = false;
    if (box.value === dealer.value) box.checked = true;
  }
  dealerWas = dealer.value;
  sittingOutLine();
}

// the folded line says who sits out, whoever ticked them (a tap, the dealer moving, the table flow);
// a seat sitting out cannot be tapped as the declarer, a partner or the player called
function sittingOutLine() {
  const out = [...form.querySelectorAll("input[name=sitting_out]:checked")].map((box) => box.value);
  const names = form.querySelector("[data-sitting-out-names]");
  if (names) names.textContent = out.join(", ");
  for (const input of form.querySelectorAll("input:is([name=declarer], [name=partners], [name=call_seat])")) {
    const sitsOut = out.includes(input.value);
    if (sitsOut && input.checked) {
      input.checked = false;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    input.disabled = sitsOut;
  }
}

if (form) {
  for (const row of form.querySelectorAll("[data-picks-for]")) {
    for (const button of row.querySelectorAll("[data-value]")) button.hidden = false;
    if (row.dataset.picksAround) drawAround(row);
    pressed(row);
    row.dataset.picking = ""; // shown from now on: a tap before this would have done nothing
  }
  for (const button of form.querySelectorAll("[data-no-js-only]")) button.hidden = true;
  roleCards();
  partnerQuestion();
  // the folded line as the form is now: another module may have ticked the dealer (drafts.js,
  // after the deals waiting offline) before this one arrived to hear it
  dealerLine();
  sittingOutLine();

  form.addEventListener("click", (event) => {
    const button = event.target.closest("[data-value]");
    if (!button) return;
    const row = button.closest("[data-picks-for]");
    const input = document.getElementById(row.dataset.picksFor);
    input.value = button.dataset.value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // a problem the preview marks inside a folded line (who sits out, the discards) is opened to
  // be seen: "see the marked fields" must never point at a field the player cannot see
  document.body.addEventListener("htmx:afterSettle", () => {
    for (const fold of form.querySelectorAll("details.field-fold:not([open])")) {
      if (fold.querySelector(".problems .problem")) fold.open = true;
    }
  });

  form.addEventListener("input", (event) => {
    for (const row of form.querySelectorAll("[data-picks-around]")) drawAround(row);
    for (const row of form.querySelectorAll("[data-picks-for]")) pressed(row);
    if (event.target.name === "contract_trump") roleCards();
    if (event.target.name === "dealer") {
      dealerLine();
      sittingOutFollowsDealer();
    }
    if (event.target.name === "sitting_out") sittingOutLine();
    partnerQuestion();
  });
}
