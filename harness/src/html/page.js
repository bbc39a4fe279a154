// The page's own script: counts the mutants shown (the test reads what it counted), filters
// them by status, and opens a mutant when its badge is followed.
(function () {
  "use strict";
  var mutants = document.querySelectorAll("details.mutant");
  var counted = {
    killed: 0, invariant: 0, output: 0, timeout: 0, memory: 0, crash: 0,
    survived: 0, "not-run": 0, skipped: 0, "not-viable": 0
  };
  mutants.forEach(function (m) {
    var status = m.dataset.status;
    if (!(status in counted)) { throw new Error("unknown status " + status + " of " + m.id); }
    counted[status] += 1;
    if (status === "killed") {
      if (!(m.dataset.reason in counted)) { throw new Error("unknown reason of " + m.id); }
      counted[m.dataset.reason] += 1;
    }
  });
  // Compare with the numbers written into the page, and show what was counted.
  var wrong = [];
  document.querySelectorAll("[data-count]").forEach(function (el) {
    var key = el.dataset.count;
    if (String(counted[key]) !== el.textContent) {
      wrong.push(key + ": " + el.textContent + " written, " + counted[key] + " listed");
      el.classList.add("mismatch");
    }
    el.textContent = String(counted[key]);
  });
  document.getElementById("counted").textContent = JSON.stringify(counted);
  var check = document.getElementById("count-check");
  check.textContent = wrong.length
    ? "The counts do not match the mutants listed: " + wrong.join("; ")
    : mutants.length + " mutants listed below; the counts above match them.";
  check.className = wrong.length ? "bad" : "good";

  // Filters: hide the mutants (and their badges) of an unchecked status.
  document.querySelectorAll("input[data-filter]").forEach(function (box) {
    box.addEventListener("change", function () {
      document.body.classList.toggle("hide-" + box.dataset.filter, !box.checked);
    });
  });
  document.getElementById("expand").addEventListener("click", function () {
    mutants.forEach(function (m) {
      if (m.offsetParent !== null) { m.open = true; }
    });
  });
  document.getElementById("collapse").addEventListener("click", function () {
    mutants.forEach(function (m) { m.open = false; });
  });
  // Following a badge (or a #mN link) opens that mutant.
  function openTarget() {
    var el = location.hash && document.getElementById(location.hash.slice(1));
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  document.body.dataset.ready = "1";
})();
