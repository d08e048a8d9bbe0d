// "Copy" beside a group's edit and view links: selects the link and puts it on
// the clipboard. Without this script the field is still there to select by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", () => {
    const input = document.getElementById(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    else document.execCommand("copy");
  });
}
