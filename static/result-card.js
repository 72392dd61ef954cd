// "Share result": hand the game's PNG card to the phone's share sheet (the Web Share API with
// files), or download it where the browser cannot share files. Without JavaScript the button
// is a plain download link. Clicks are caught on the document, because the winner screen is
// swapped in and out by the scoreboard's polling.
(function () {
  "use strict";
  function say(box, text) {
    var status = box.querySelector("[data-card-status]");
    if (status) status.textContent = text;
  }

  function download(blob, name) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
  }

  function share(box, button) {
    var name = button.getAttribute("download") || "result.png";
    say(box, "Making the card…");
    fetch(button.href, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("status " + response.status);
      return response.blob();
    }).then(function (blob) {
      var file = typeof File === "function" ? new File([blob], name, { type: "image/png" }) : null;
      var canShare = file && typeof navigator.share === "function" &&
        (typeof navigator.canShare !== "function" || navigator.canShare({ files: [file] }));
      if (!canShare) {
        download(blob, name);
        say(box, "Card downloaded.");
        return;
      }
      return navigator.share({ files: [file], title: button.getAttribute("data-card-title") || document.title })
        .then(function () { say(box, "Shared."); }, function (error) {
          // Closing the share sheet is not a failure; anything else falls back to a download.
          if (error && error.name === "AbortError") { say(box, ""); return; }
          download(blob, name);
          say(box, "Card downloaded.");
        });
    }).catch(function () {
      say(box, "Could not make the card: check the connection and try again.");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-card-button]");
    if (!button) return;
    var box = button.closest("[data-card]") || button.parentNode;
    event.preventDefault();
    share(box, button);
  });
})();
