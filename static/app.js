// The few things htmx cannot do by itself: say whether the server is reachable, keep a tap made
// while offline and send it again when the connection is back, and keep the screen awake while
// a game is open (Screen Wake Lock, where the browser has it).
(function () {
  "use strict";

  // Taps that have not reached the server. A tap says the state it wants ("7♣ in the pile: yes"),
  // read from the control when it is sent, so sending one again can never count twice.
  var pending = new Set();
  var online = true;
  var RETRY_MS = 2000;

  function isTap(elt) {
    return !!(elt && elt.closest && elt.closest("#hand-panel") &&
      elt.matches("input[type=checkbox], form.rank-row, form.target-picker"));
  }

  function marker(elt) {
    return elt.matches("input") ? elt.closest("label") || elt : elt;
  }

  function waiting() {
    pending.forEach(function (elt) { if (!document.body.contains(elt)) pending.delete(elt); });
    return pending.size;
  }

  function showStatus() {
    var status = document.getElementById("live-status");
    if (!status) return;
    var n = waiting();
    var taps = n === 1 ? "1 tap waits" : n + " taps wait";
    if (!online) {
      status.textContent = n ? "○ Offline: " + taps + " to be sent" : "○ Offline: reconnecting…";
    } else {
      status.textContent = n ? "● Sending " + taps.replace(" waits", "").replace(" wait", "") + "…" : "● Live";
    }
    status.classList.toggle("offline", !online);
    document.body.classList.toggle("is-offline", !online);
  }

  var OFFLINE_MSG = "Not sent: this phone is offline. Tap again when it is back online.";

  function say(text) {
    var bar = document.getElementById("bar-msg");
    if (bar) {
      bar.classList.remove("news");  // what the page says itself is a warning, in the warning's red
      bar.textContent = text;
    }
  }

  // A poll runs by itself ("every 3s"): nobody tapped, so nothing is said about it but the status.
  function isPoll(elt) {
    return !!(elt && elt.getAttribute && /\bevery\b/.test(elt.getAttribute("hx-trigger") || ""));
  }

  function setPending(elt, on) {
    if (on) pending.add(elt); else pending.delete(elt);
    marker(elt).classList.toggle("pending", on);
    var label = marker(elt);
    if (on) label.setAttribute("aria-busy", "true"); else label.removeAttribute("aria-busy");
  }

  function retry() {
    if (!waiting()) return;
    pending.forEach(function (elt) { htmx.trigger(elt, "change"); });
  }

  document.addEventListener("htmx:sendError", function (event) {
    online = false;
    var elt = event.detail.elt;
    if (isTap(elt)) {
      setPending(elt, true);
    } else if (elt && !isPoll(elt)) {
      say(OFFLINE_MSG);
    }
    showStatus();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0) return;  // never reached the server: sendError said so
    var wasOffline = !online;
    online = true;
    // Back online: the word that a tap was not sent is no longer true.
    var bar = document.getElementById("bar-msg");
    if (bar && bar.textContent === OFFLINE_MSG) bar.textContent = "";
    if (isTap(event.detail.elt)) {
      setPending(event.detail.elt, false);
      // The target picker keeps a refused pick lit: marked as refused until a pick goes through.
      if (event.detail.elt.matches("form.target-picker")) {
        event.detail.elt.classList.toggle("refused", xhr.status >= 400 && xhr.status < 500);
      }
    }
    if (xhr.status >= 500) {
      say("Something went wrong on the server, so that last step may not be saved. Reload the page to see what is stored.");
    }
    showStatus();
    if (wasOffline) retry();
  });

  // A refused tap puts its control back as stored, unless the player has tapped that control
  // again since it was sent: htmx holds the newer tap until the refusal is back and then sends
  // it as the control shows it. Put back, the control would show the old state, and replaced,
  // htmx would drop the held tap with the element it belonged to.
  var changes = new WeakMap();
  var sentAt = new WeakMap();

  function tapSource(elt) {
    var form = elt.closest && elt.closest("form.rank-row, form.target-picker");
    return form || elt;
  }

  document.addEventListener("change", function (event) {
    var elt = tapSource(event.target);
    if (isTap(elt)) changes.set(elt, (changes.get(elt) || 0) + 1);
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isTap(elt)) sentAt.set(elt, changes.get(elt) || 0);
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var elt = target.matches("form") ? target : target.querySelector("input[type=checkbox]");
    if (elt && isTap(elt) && (changes.get(elt) || 0) > (sentAt.get(elt) || 0)) {
      event.detail.shouldSwap = false;
    }
  });

  // A poll whose element left the page while its request was on the way (a tap's answer brought
  // a newer poll, a control's answer a newer night) has its answer dropped: it is older than what
  // replaced it, and htmx could not place it ("Invalid re-target"). The new element asks again on
  // its own schedule. A detached element's events stop at itself, so it gets its own listener.
  var watchedPolls = new WeakSet();

  function dropIfGone(event) {
    if (!event.currentTarget.isConnected) event.preventDefault();
  }

  // A poll's answer that comes while this phone's own tap or save is on its way is let go: the
  // answer to what the player did says what happened (a save that ended the game says "Round 2
  // saved." on the result), where the poll would move the page on without a word. The next poll
  // asks again.
  function ownOnItsWay() {
    return Array.prototype.some.call(document.querySelectorAll(".htmx-request"), function (elt) {
      return !isPoll(elt);
    });
  }

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    if (isPoll(event.detail.elt) && ownOnItsWay()) event.preventDefault();
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!isPoll(elt) || watchedPolls.has(elt)) return;
    watchedPolls.add(elt);
    elt.addEventListener("htmx:beforeOnLoad", dropIfGone);
  });

  // A tap's answer never moves the control tapped: a region above it that grew or shrank (a redeal
  // counts the redeals above its button) is scrolled away. A refusal's sentence is said next to its
  // control and in view: never under the bar at the bottom or the player tabs at the top (a row
  // tapped just above the bar has its sentence below it, so the page moves up by that much).
  var held = null;  // the id of the control a tap's answer is about to redraw, and its place

  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    // A tap that went through makes older refusals on this hand stale (cleared before its own
    // answer is swapped in, which may say something new).
    if (isTap(elt) && event.detail.xhr.status < 300) {
      document.querySelectorAll("#hand-panel .tap-msg").forEach(function (p) { p.textContent = ""; });
    }
    held = null;
    if (!elt || isPoll(elt) || !elt.querySelector) return;
    var control = elt.id ? elt : elt.querySelector("button[id]");
    if (control && control.getClientRects().length) held = [control.id, control.getBoundingClientRect().top];
  });

  function inView(elt) {
    var box = elt.getBoundingClientRect();
    if (!box.height) return;
    var tabs = document.getElementById("tabs");
    var bar = document.getElementById("live-bar");
    var top = tabs ? Math.max(0, tabs.getBoundingClientRect().bottom) : 0;
    var bottom = bar ? Math.min(window.innerHeight, bar.getBoundingClientRect().top) : window.innerHeight;
    if (box.bottom > bottom - 8) window.scrollBy(0, box.bottom - bottom + 8);
    else if (box.top < top + 8) window.scrollBy(0, box.top - top - 8);
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var keep = held;
    held = null;
    if (!xhr || xhr.status === 0 || isPoll(event.detail.elt)) return;
    // The whole round drawn again (saved, replaced): a new view, not a move. (A refusal puts its
    // control back where it was; a stale view's notice above it is left to show.)
    if (keep && xhr.status < 300 && !xhr.getResponseHeader("HX-Retarget")) {
      var now = document.getElementById(keep[0]);
      if (now && now.getClientRects().length) window.scrollBy(0, now.getBoundingClientRect().top - keep[1]);
    }
    if (xhr.status >= 400 && xhr.status < 500) {
      document.querySelectorAll("#hand-panel .tap-msg").forEach(function (p) {
        if (p.textContent.trim()) inView(p);
      });
    }
  });

  // A hand's first target, once its pile is in, finishes it: the answer shows the target and the
  // score where the tap was made, and the next hand opens a moment later (the panel is marked
  // `moving-on` meanwhile). Another tap on the hand or a tab first keeps the player where they are.
  // The new hand's top is brought into view, under the player tabs, if the player had scrolled past.
  var moveOn = null;
  function stopMovingOn() {
    // Kept where they are: the sentence in the bar saying the next hand opens is no longer true.
    if (moveOn) {
      var bar = document.getElementById("bar-msg");
      if (bar) bar.textContent = "";
    }
    clearTimeout(moveOn);
    moveOn = null;
    var panel = document.getElementById("hand-panel");
    if (panel) panel.classList.remove("moving-on");
  }
  document.addEventListener("orchard:move-on", function (event) {
    var panel = document.getElementById("hand-panel");
    if (!panel) return;
    stopMovingOn();
    panel.classList.add("moving-on");
    moveOn = setTimeout(function () {
      moveOn = null;
      htmx.ajax("GET", event.detail.url, { source: panel, swap: "none" }).finally(function () {
        var now = document.getElementById("hand-panel");
        if (now) now.classList.remove("moving-on");
        var hands = document.getElementById("step-hands");
        if (hands && hands.getBoundingClientRect().top < 0) hands.scrollIntoView({ block: "start" });
      });
    }, Number(panel.dataset.moveOnMs) || 0);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (moveOn && elt && elt.closest && elt.closest("#hand-panel, #tabs")) stopMovingOn();
  });

  // A poll that redraws a region above the screen (another phone saved the bid, and this phone's
  // bid step folds) must not move what the player is looking at: the page scrolls by as much as
  // the region grew or shrank. (The browser's own scroll anchoring is off on the round page.)
  var above = new Map();
  var polled = false;  // the answer being swapped is the poll's
  document.addEventListener("htmx:beforeSwap", function (event) {
    polled = !!(event.detail.elt && event.detail.elt.id === "poll");
  });
  document.addEventListener("htmx:afterRequest", function () { polled = false; });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (!polled) return;
    var rect = event.detail.target.getBoundingClientRect();
    if (rect.top < 0) above.set(event.detail.target.id, rect.height);
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var id = event.detail.target && event.detail.target.id;
    if (!above.has(id)) return;
    var before = above.get(id);
    above.delete(id);
    var now = document.getElementById(id);
    if (now) window.scrollBy(0, now.getBoundingClientRect().height - before);
  });

  setInterval(function () {
    if (waiting()) retry();
  }, RETRY_MS);
  window.addEventListener("online", retry);

  // Taps kept where a reload finds them. Every tap is written to localStorage as it is sent (its
  // address, which names the hand and the card, rank or target, and the values it sends, the hand
  // version the page showed included) and struck off once the server answered it. A page that
  // loads with taps of its own round still written down (a reload, or a tab the phone dropped
  // while it was offline) sends them again, oldest first, and then draws the hand as stored. A tap
  // says the state it wants, so one that did arrive before changes nothing the second time; one
  // made on a hand another phone changed since is refused as stale, as it would have been.
  var UNSENT = "orchard-unsent";

  function unsent() {
    try { return JSON.parse(localStorage.getItem(UNSENT) || "{}"); } catch (e) { return {}; }
  }
  function keepUnsent(all) {
    try { localStorage.setItem(UNSENT, JSON.stringify(all)); } catch (e) { /* storage full or off */ }
  }
  function unsentHere() {
    var all = unsent();
    return Object.keys(all).filter(function (path) { return all[path].page === location.pathname; })
      .sort(function (a, b) { return all[a].at - all[b].at; })
      .map(function (path) { return [path, all[path].values]; });
  }
  var replaying = 0;  // taps of an earlier page being sent again

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (event.detail.verb !== "post" || !(isTap(elt) || elt.id === "hand-panel")) return;
    var values = {};
    event.detail.formData.forEach(function (value, name) { values[name] = value; });
    var all = unsent();
    all[event.detail.path] = { page: location.pathname, values: values, at: Date.now() };
    keepUnsent(all);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var path = event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (!xhr || xhr.status === 0 || !path) return;  // not answered: still to be sent
    var all = unsent();
    if (all[path]) {
      delete all[path];
      keepUnsent(all);
    }
  });

  function sendUnsent() {
    var panel = document.getElementById("hand-panel");
    var seat = document.getElementById("hand-seat");
    var taps = unsentHere();
    if (!panel || !seat || !taps.length) return;
    replaying = taps.length;
    showUnsent();
    var sent = taps.reduce(function (before, tap) {
      return before.then(function () {
        // Sent from the hand panel (its queue keeps them in order), with the values the tap had.
        return htmx.ajax("POST", tap[0], { source: panel, values: tap[1], swap: "none" });
      }).catch(function () { /* not sent: it stays written down */ })
        .then(function () { replaying = unsentHere().length; showUnsent(); });
    }, Promise.resolve());
    sent.then(function () {
      if (unsentHere().length) return;  // still offline: the next load or "online" tries again
      htmx.ajax("GET", location.pathname + "/hands/" + seat.value, { source: panel, swap: "none" });
    });
  }

  function showUnsent() {
    var status = document.getElementById("live-status");
    if (!status || !replaying) return showStatus();
    status.textContent = "● " + (replaying === 1 ? "1 tap" : replaying + " taps") + " not sent yet";
  }

  document.addEventListener("DOMContentLoaded", sendUnsent);
  window.addEventListener("online", function () { if (unsentHere().length) sendUnsent(); });


  // A server error is never swapped in; say so at the top of the page too.
  document.addEventListener("htmx:responseError", function (event) {
    var box = document.getElementById("request-error");
    if (!box || event.detail.xhr.status < 500) return;
    box.textContent = "Something went wrong on the server, so that last step may not be saved. Reload the page to see what is stored.";
    box.hidden = false;
  });

  // The new game form: the keyboard's Go (Enter) on a player's name moves to the next name, never
  // sends the form half filled (after the fourth name it only closes the keyboard).
  document.addEventListener("keydown", function (event) {
    var match = event.key === "Enter" && /^player_(\d)$/.exec(event.target.id || "");
    if (!match) return;
    event.preventDefault();
    var next = document.getElementById("player_" + (Number(match[1]) + 1));
    if (next) next.focus(); else event.target.blur();
  });

  // The new game form: each seat of "who deals first" is named as its player is typed.
  document.addEventListener("input", function (event) {
    var match = /^player_(\d)$/.exec(event.target.id || "");
    var label = match && document.querySelector("[data-seat-name='" + match[1] + "']");
    if (!label) return;
    var name = event.target.value.trim();
    label.textContent = "Seat " + (Number(match[1]) + 1) + (name ? " · " + name : "");
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
  // A save opens the scoreboard at ?saved=N, which says "Round N saved."; once it is said, the
  // address is the plain scoreboard's again, so a reload or a copied link does not repeat it.
  if (/[?&]saved=/.test(location.search) && window.URL && history.replaceState) {
    var plain = new URL(location.href);
    plain.searchParams.delete("saved");
    history.replaceState(history.state, "", plain.pathname + plain.search + plain.hash);
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
