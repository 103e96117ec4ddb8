// FineReason leaderboard: click a header to sort (again to reverse). Missing values sort last.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); });
  var table = document.getElementById("board");
  var body = table.tBodies[0];
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);

  function key(cell) {
    var v = cell.getAttribute("data-value");
    if (v === null) { return cell.textContent.trim().toLowerCase(); }
    return v === "" ? null : parseFloat(v);
  }
  function sortBy(index, descending) {
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[index]), y = key(b.cells[index]);
      if (x === null || y === null) { return (x === null) - (y === null); }
      var c = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    heads.forEach(function (h, i) {
      h.setAttribute("aria-sort", i === index ? (descending ? "descending" : "ascending") : "none");
    });
  }
  heads.forEach(function (h, i) {
    h.addEventListener("click", function () {
      // numbers: best first on the first click (highest, or lowest where lower is better)
      var numeric = h.getAttribute("data-type") === "number" && h.getAttribute("data-higher") !== "0";
      var current = h.getAttribute("aria-sort");
      sortBy(i, current === "none" || current === null ? numeric : current === "ascending");
    });
  });

  function ordered(index, descending) {
    var last = undefined;
    for (var r = 0; r < body.rows.length; r++) {
      var v = key(body.rows[r].cells[index]);
      if (v === null) { last = null; continue; }
      if (last === null) { return false; }  // a value after a missing one
      if (last !== undefined && (descending ? v > last : v < last)) { return false; }
      last = v;
    }
    return true;
  }
  function selftest() {
    var failures = [];
    var models = body.rows.length;
    heads.forEach(function (h, i) {
      for (var pass = 0; pass < 2; pass++) {
        h.click();
        var desc = h.getAttribute("aria-sort") === "descending";
        if (!ordered(i, desc)) { failures.push(h.textContent.trim() + (desc ? " desc" : " asc")); }
        if (body.rows.length !== models) { failures.push(h.textContent.trim() + " lost rows"); }
      }
    });
    var names = Array.prototype.map.call(body.rows, function (r) { return r.cells[0].textContent.trim(); });
    var out = document.getElementById("selftest-result");
    out.textContent = (failures.length || errors.length ? "FAIL " : "PASS ") + heads.length + " columns sorted both ways; "
      + "models: " + names.sort().join(" | ") + (failures.length ? "; failures: " + failures.join(", ") : "")
      + (errors.length ? "; errors: " + errors.join(" / ") : "");
  }
  if (window.location.hash === "#selftest") { selftest(); }
})();
