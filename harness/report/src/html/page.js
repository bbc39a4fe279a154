// The page's own script: counts the mutants listed (the test reads what it counted), filters
// them by status and counts what the filters leave shown, moves between survivors with the
// keyboard, and opens a mutant when its badge is followed.
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

  // Filters: hide the mutants (and their badges) of an unchecked status. The page opens with
  // the body's hide-* classes matching the boxes; what is shown is counted from the layout.
  function shownCounts() {
    var shown = { total: 0 };
    mutants.forEach(function (m) {
      if (m.getClientRects().length === 0) { return; }
      shown.total += 1;
      shown[m.dataset.status] = (shown[m.dataset.status] || 0) + 1;
    });
    return shown;
  }
  function showCounts() {
    var shown = shownCounts();
    var hidden = [];
    ["survived", "killed", "not-run", "skipped", "not-viable"].forEach(function (k) {
      var off = counted[k] - (shown[k] || 0);
      if (off > 0) { hidden.push(off + " " + k.replace("-", " ")); }
    });
    document.getElementById("shown").textContent = "Showing " + shown.total + " of " +
      mutants.length + " mutants" + (hidden.length ? " (hidden: " + hidden.join(", ") + ")" : "") + ".";
    document.getElementById("shown-counted").textContent = JSON.stringify(shown);
    return shown;
  }
  document.querySelectorAll("input[data-filter]").forEach(function (box) {
    document.body.classList.toggle("hide-" + box.dataset.filter, !box.checked);
    box.addEventListener("change", function () {
      document.body.classList.toggle("hide-" + box.dataset.filter, !box.checked);
      showCounts();
    });
  });
  showCounts();

  // Next / previous survivor, in the order of the list at the top.
  var order = [];
  document.querySelectorAll("#survivor-list li").forEach(function (li) {
    var el = document.getElementById(li.dataset.id);
    if (!el) { throw new Error("the survivor list names " + li.dataset.id + ", which is not listed"); }
    order.push({ li: li, el: el });
  });
  var at = -1;
  function go(i) {
    if (order.length === 0) { return; }
    if (at >= 0) {
      order[at].el.classList.remove("current");
      order[at].li.classList.remove("current");
    }
    at = (i + order.length) % order.length;
    var s = order[at];
    var box = document.querySelector('input[data-filter="survived"]');
    if (box && !box.checked) { box.checked = true; box.dispatchEvent(new Event("change")); }
    s.el.open = true;
    s.el.classList.add("current");
    s.li.classList.add("current");
    if (history.replaceState) { history.replaceState(null, "", "#" + s.el.id); }
    s.el.scrollIntoView({ block: "center" });
    document.body.dataset.current = s.el.id;
    document.getElementById("nav-pos").textContent =
      "Survivor " + (at + 1) + " of " + order.length + ": #" + s.el.id.slice(1) + ".";
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") { return; }
    if (e.key === "n" || e.key === "j") { go(at + 1); e.preventDefault(); }
    else if (e.key === "p" || e.key === "k") { go(at < 0 ? -1 : at - 1); e.preventDefault(); }
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

  // The browser test's hook: `#test=n,n,p,click:killed` replays those keys (and clicks that
  // filter's box) once the page is ready, writing after each step the survivor that is
  // current, the counts shown and the page's height into #test-trail.
  var test = /^#test=(.*)$/.exec(location.hash);
  if (test) {
    var trail = [{
      step: "load", current: null, shown: shownCounts(),
      height: document.documentElement.scrollHeight
    }];
    decodeURIComponent(test[1]).split(",").forEach(function (step) {
      if (step.indexOf("click:") === 0) {
        document.querySelector('input[data-filter="' + step.slice(6) + '"]').click();
      } else {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: step, bubbles: true }));
      }
      trail.push({
        step: step,
        current: document.body.dataset.current || null,
        shown: shownCounts(),
        height: document.documentElement.scrollHeight
      });
    });
    document.getElementById("test-trail").textContent = JSON.stringify(trail);
  } else {
    openTarget();
  }
  document.body.dataset.ready = "1";
})();
