// The few things htmx cannot do: show whether polling reaches the server, and keep the
// screen awake while a game is open (Screen Wake Lock, where the browser has it).
(function () {
  "use strict";
  function setLive(ok) {
    var status = document.getElementById("live-status");
    if (!status) return;
    status.textContent = ok ? "● Live" : "○ Offline: reconnecting…";
    status.classList.toggle("offline", !ok);
  }
  document.addEventListener("htmx:sendError", function () { setLive(false); });
  // A server error is never swapped in; say so instead of letting a tap vanish.
  document.addEventListener("htmx:responseError", function (event) {
    var box = document.getElementById("request-error");
    if (!box || event.detail.xhr.status < 500) return;
    box.textContent = "Something went wrong on the server, so that last step may not be saved. Reload the page to see what is stored.";
    box.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || event.detail.xhr.status < 500) setLive(event.detail.xhr.status !== 0);
  });

  var lock = null;
  function wanted() {
    var box = document.getElementById("keep-awake");
    return box && box.checked && "wakeLock" in navigator && document.visibilityState === "visible";
  }
  function sync() {
    if (wanted() && !lock) {
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        lock.addEventListener("release", function () { lock = null; });
      }).catch(function () { lock = null; });
    } else if (!wanted() && lock) {
      lock.release();
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("keep-awake");
    if (!box) return;
    box.checked = localStorage.getItem("orchard-keep-awake") !== "off";
    box.addEventListener("change", function () {
      localStorage.setItem("orchard-keep-awake", box.checked ? "on" : "off");
      sync();
    });
    document.addEventListener("visibilitychange", sync);
    sync();
  });
})();
