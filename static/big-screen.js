// The big-screen leaderboard (templates/club_nights/board.html) on a wall: nobody scrolls it, so
// it shows as many rows as the screen holds and turns to the next page by itself every few
// seconds ("Page 2 of 9"), every player once a round. The live poll brings a new board every few
// seconds; it is paged again at once, on the page it was showing.
(function () {
  "use strict";

  var page = 0;
  var timer = null;

  function board() { return document.getElementById("big-board"); }

  // Rows in pages: as many as fit between the table's first row and the bottom of the screen.
  function pages(section) {
    var rows = section.querySelectorAll("tbody tr");
    var out = [];
    if (!rows.length) return out;
    for (var i = 0; i < rows.length; i++) rows[i].hidden = false;
    var top = rows[0].getBoundingClientRect().top;
    var room = window.innerHeight - top - 8;
    var used = room;  // starts "full": the first row opens the first page
    for (var j = 0; j < rows.length; j++) {
      var height = rows[j].getBoundingClientRect().height;
      if (used + height > room && (used > 0 || out.length === 0)) {
        out.push([]);
        used = 0;
      }
      out[out.length - 1].push(rows[j]);
      used += height;
    }
    return out;
  }

  function show() {
    var section = board();
    if (!section) return;
    var split = pages(section);
    if (page >= split.length) page = 0;
    split.forEach(function (rows, n) {
      rows.forEach(function (row) { row.hidden = n !== page; });
    });
    var label = document.getElementById("board-page");
    if (label) label.textContent = split.length > 1 ? "Page " + (page + 1) + " of " + split.length : "";
    section.dataset.pages = String(split.length);
  }

  function turn() {
    var section = board();
    var count = section ? Number(section.dataset.pages || 1) : 1;
    page = count > 1 ? (page + 1) % count : 0;
    show();
  }

  function start() {
    var section = board();
    if (!section) return;
    show();
    if (timer === null) {
      var seconds = Number(section.dataset.pageSeconds) || 8;
      timer = window.setInterval(turn, seconds * 1000);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
  window.addEventListener("resize", show);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "big-board") show();
  });
})();
