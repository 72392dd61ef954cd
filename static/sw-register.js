// Registers the service worker (static/sw.js, served at /sw.js so that it covers every page).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // Without a worker the app works as before; only the offline page is missing.
    });
  });
})();
