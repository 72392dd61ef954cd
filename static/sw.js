// Orchard's service worker: the app shell (styles, scripts, icons, an offline page) from a cache,
// so a home-screen launch opens at once and a phone without a connection sees a clear page
// instead of the browser's error. Scores are never cached: every page is asked of the network
// first, and polls and taps are left alone (they go to the network as if there were no worker).
// The server fills in SHELL (the versioned asset addresses) and VERSION when it serves this file.
"use strict";

var SHELL = __SHELL__;
var OFFLINE = __OFFLINE__;
var CACHE = "orchard-shell-" + __VERSION__;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("orchard-shell-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isShell(url) {
  return SHELL.indexOf(url.pathname + url.search) !== -1;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: always the network's answer, never a stored copy that could show old scores.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE).then(function (page) { return page || Response.error(); });
    }));
    return;
  }
  if (isShell(url)) {
    // Versioned assets: their address changes with their content, so a stored copy is current.
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
  }
  // Anything else (polls, taps, exports) is not touched.
});
