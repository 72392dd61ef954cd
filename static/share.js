// Copy and Share for a link (the crew link, a table's or the door's code): the Web Share API
// where the phone has it (the system share sheet), the clipboard otherwise. The buttons stay
// hidden without JavaScript. A QR code marked data-qr-zoom fills the screen at a tap (a code
// across a room scans better) and goes back at the next tap or Escape. The page's parts come and
// go with htmx swaps, so every tap is caught once, on the document.
(function () {
  "use strict";
  function say(box, text) {
    var status = box.querySelector("[data-share-status]");
    if (status) status.textContent = text;
  }

  // Older browsers and plain-http pages have no navigator.clipboard: copy the selected link.
  function copyBySelection(box) {
    var code = box.querySelector("[data-share-text]");
    if (!code) return false;
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }

  function copy(box, url) {
    function fallback() {
      say(box, copyBySelection(box) ? "Copied" : "Could not copy: the link is selected, copy it from the menu.");
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(function () { say(box, "Copied"); }, fallback);
    } else {
      fallback();
    }
  }

  function share(box, url) {
    navigator.share({ title: box.getAttribute("data-share-title") || document.title, url: url }).then(
      function () { say(box, "Shared"); },
      function (error) {
        // Closing the share sheet is not a failure; anything else falls back to copying.
        if (!error || error.name !== "AbortError") copy(box, url);
      }
    );
  }

  function zoom(code, big) {
    code.classList.toggle("qr-big", big);
    code.setAttribute("aria-expanded", big ? "true" : "false");
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var code = target.closest("[data-qr-zoom]");
    if (code) {
      zoom(code, !code.classList.contains("qr-big"));
      return;
    }
    var button = target.closest("[data-copy-button], [data-share-button]");
    var box = button && button.closest("[data-share-url]");
    if (!box) return;
    var url = box.getAttribute("data-share-url");
    if (button.hasAttribute("data-share-button")) share(box, url);
    else copy(box, url);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll("[data-qr-zoom].qr-big").forEach(function (code) { zoom(code, false); });
  });

  // Show the buttons this phone can use, on the page and in every part a swap brings.
  function show(root) {
    if (!root || !root.querySelectorAll) return;
    root.querySelectorAll("[data-copy-button]").forEach(function (button) { button.hidden = false; });
    if (typeof navigator.share === "function") {
      root.querySelectorAll("[data-share-button]").forEach(function (button) { button.hidden = false; });
    }
  }
  document.addEventListener("htmx:load", function (event) { show(event.detail.elt); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { show(document); });
  else show(document);
})();
