// The stage clock (issue 47, item 6): each <p class="stage-clock" data-ends="…"> counts down to its
// stage's end on the phone's own clock ("14 min left"), rounded up like the server's first word,
// and says its data-up words once the time has passed. An element with data-clock-refresh (the
// scoreboard) is fetched again from that address at that moment, so its controls follow. The
// organiser's form gets the phone's time zone (input[name=offset]), so "21:30" is the phone's.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".stage-clock[data-ends]").forEach(function (el) {
      var ends = new Date(el.getAttribute("data-ends")).getTime();
      if (isNaN(ends)) return;
      var left = el.querySelector(".clock-left");
      var wasUp = el.classList.contains("up");
      if (ends <= now) {
        el.classList.add("up");
        if (left) left.textContent = el.getAttribute("data-up");
        if (!wasUp) refresh();
      } else if (left) {
        left.textContent = Math.ceil((ends - now) / 60000) + " min left";
      }
    });
  }
  function refresh() {
    document.querySelectorAll("[data-clock-refresh]").forEach(function (el) {
      if (window.htmx && el.id) {
        window.htmx.ajax("GET", el.getAttribute("data-clock-refresh"), { target: "#" + el.id, swap: "outerHTML" });
      }
    });
  }
  function zones(root) {
    (root || document).querySelectorAll("input[name=offset][data-phone-zone]").forEach(function (input) {
      input.value = String(new Date().getTimezoneOffset());
    });
  }
  function start() { zones(); tick(); window.setInterval(tick, 5000); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("htmx:afterSettle", function (event) { zones(event.target); tick(); });
})();
