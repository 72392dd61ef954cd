// Copy and Share for the crew link: the Web Share API where the phone has it (the system
// share sheet), the clipboard otherwise. The buttons stay hidden without JavaScript.
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

  function wire(box) {
    var url = box.getAttribute("data-share-url");
    var shareButton = box.querySelector("[data-share-button]");
    var copyButton = box.querySelector("[data-copy-button]");
    if (shareButton && typeof navigator.share === "function") {
      shareButton.hidden = false;
      shareButton.addEventListener("click", function () { share(box, url); });
    }
    if (copyButton) {
      copyButton.hidden = false;
      copyButton.addEventListener("click", function () { copy(box, url); });
    }
  }

  function wireAll() {
    document.querySelectorAll("[data-share-url]").forEach(wire);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireAll);
  else wireAll();
})();
