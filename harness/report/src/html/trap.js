// Uncaught errors and rejected promises of this page, shown at its top: a page whose script
// failed says so instead of showing numbers it did not check.
(function () {
  function note(text) {
    var put = function () {
      var el = document.getElementById("js-errors");
      if (el) { el.textContent += text + "\n"; el.className = "shown"; }
      else { document.addEventListener("DOMContentLoaded", put); }
    };
    put();
  }
  window.addEventListener("error", function (e) {
    note("error: " + e.message + " (line " + e.lineno + ")");
  });
  window.addEventListener("unhandledrejection", function (e) {
    note("unhandled rejection: " + e.reason);
  });
})();
