// The organiser's night page (templates/club_nights/show.html): every control's answer swaps the
// whole night in, and the parts above the control (the leaderboard, the seating, who is here)
// change size with it. Left alone, the control would move under the thumb and the answer land
// off the screen; a second tap could hit a different button. So after each tap:
// - a stage drawn, drawn again or started (or the night finished): its sentence takes the tapped
//   button's place, and the new seating or the tables' codes follow right under it;
// - any other tap (a swap, a player leaving or added, a refusal): the control stays where it was,
//   its sentence just under it.
(function () {
  "use strict";

  var tapped = null;  // the control's form and where its button was on the screen

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("#night form")) return;
    var button = form.querySelector("button");
    tapped = button && { action: form.getAttribute("hx-post"), top: button.getBoundingClientRect().top };
  });

  function sameControl(action) {
    var forms = document.querySelectorAll("#night form[hx-post]");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].getAttribute("hx-post") === action) return forms[i].querySelector("button");
    }
    return null;
  }

  // After the swap, and after app.js's own hook for the round page (this file is loaded after it).
  document.addEventListener("htmx:afterRequest", function (event) {
    var was = tapped;
    tapped = null;
    if (!was || !event.detail.xhr || event.detail.xhr.status === 0) return;
    var made = document.querySelector("#night #note-stage.done");
    var anchor = made || sameControl(was.action) || document.querySelector("#night [id^='note-']");
    if (!anchor) return;
    window.scrollBy(0, anchor.getBoundingClientRect().top - was.top);
    // The sentence is the answer: never left below the screen.
    var note = document.querySelector("#night [id^='note-']");
    var below = note ? note.getBoundingClientRect().bottom - window.innerHeight : 0;
    if (below > 0) window.scrollBy(0, below + 8);
  });
})();
