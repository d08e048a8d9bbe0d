// The side-by-side page of an edit that met another phone's change (templates/partials/edit_conflict.html).
//
// The edit form keeps its taps on the phone (drafts.js) so a reload never loses them. Once the player has chosen here, those taps are done with: kept, they
// would come back over theirs when "edit again" opens the form with the hand as it is now.
import { draftName, write } from "./stores.js";

const conflict = document.querySelector("[data-edit-form]");

function dropDraft() {
  write(draftName(conflict.dataset.editForm), null);
}

if (conflict) {
  conflict.querySelectorAll("a[data-drops-draft]").forEach((link) => link.addEventListener("click", dropDraft));
  conflict.querySelectorAll("form[data-drops-draft]").forEach((form) => form.addEventListener("submit", dropDraft));
}
