// The rules' drop-downs on a phone: an option is a whole sentence ("A made contract scores
// 2 × (B − 13) + (P − B): …"), cut to its first words in a closed drop-down 390 px wide. A
// sentence that does not fit is written out in full under its drop-down, and follows each change.

const ruler = document.createElement("canvas").getContext("2d");

function fits(select, text) {
  const style = getComputedStyle(select);
  ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // the room left of the arrow: the box less its padding and the arrow's own width
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
  return ruler.measureText(text).width <= room;
}

for (const select of document.querySelectorAll(".option-group select")) {
  const words = document.createElement("p");
  words.className = "help chosen-words";
  words.setAttribute("aria-hidden", "true"); // the drop-down itself already says it to a screen reader
  select.insertAdjacentElement("afterend", words);
  const show = () => {
    const text = select.selectedOptions[0] ? select.selectedOptions[0].textContent : "";
    words.textContent = text;
    words.hidden = !text || fits(select, text);
  };
  select.addEventListener("change", show);
  // the fold opens after the page is drawn: measured when it is, and again when it opens
  select.closest("details")?.addEventListener("toggle", show);
  show();
}
