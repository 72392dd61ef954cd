// Times are stored in UTC and the server writes them in its own time zone; a phone may be in
// another. Each <time datetime="…" data-local="clock"> is shown again as the phone's local
// time of day ("19:30"), and each <time datetime="…" data-local="datetime"> as its local day
// and time ("12 Mar 19:30"). Without JavaScript the server's time stays.
(function () {
  "use strict";
  var formats = {
    clock: new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    datetime: new Intl.DateTimeFormat(undefined, {
      day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    }),
  };
  function localise(root) {
    (root || document).querySelectorAll("time[data-local][datetime]").forEach(function (el) {
      var format = formats[el.getAttribute("data-local")];
      var when = new Date(el.getAttribute("datetime"));
      if (format && !isNaN(when.getTime())) el.textContent = format.format(when);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { localise(); });
  else localise();
  document.addEventListener("htmx:afterSettle", function (event) { localise(event.target); });
})();
