// FineReason leaderboard: search, filters, column selector and sorting (mouse and keyboard).
// Opened with #selftest, the page exercises all of them and writes JSON into #selftest-result.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); });
  var table = document.getElementById("board");
  var body = table.tBodies[0];
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var search = document.getElementById("search");
  var puzzle = document.getElementById("f-puzzle");
  var filters = Array.prototype.slice.call(document.querySelectorAll("select[data-attr]"));
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#column-selector input[data-col]"));
  var all = function () { return Array.prototype.slice.call(body.rows); };
  var shown = function () { return all().filter(function (r) { return !r.hidden; }); };

  function apply() {
    var terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    all().forEach(function (r) {
      var text = r.getAttribute("data-search");
      var ok = terms.every(function (t) { return text.indexOf(t) >= 0; });
      filters.forEach(function (f) {
        if (f.value && r.getAttribute("data-" + f.getAttribute("data-attr")) !== f.value) { ok = false; }
      });
      r.hidden = !ok;
    });
    var visible = {};
    boxes.forEach(function (b) { visible[b.getAttribute("data-col")] = b.checked; });
    heads.forEach(function (h) {
      var p = h.getAttribute("data-puzzle"), col = h.getAttribute("data-col");
      var on = visible[col] !== false;
      if (p && puzzle.value) { on = p === puzzle.value; }
      var cells = table.querySelectorAll('[data-col="' + col + '"]');
      for (var i = 0; i < cells.length; i++) { cells[i].style.display = on ? "" : "none"; }
    });
    document.getElementById("row-count").textContent = shown().length + " of " + all().length + " rows shown";
  }
  search.addEventListener("input", apply);
  filters.concat([puzzle]).forEach(function (f) { f.addEventListener("change", apply); });
  boxes.forEach(function (b) { b.addEventListener("change", apply); });

  function key(row, index) {
    var cell = row.cells[index], v = cell.getAttribute("data-value");
    if (v === null) { v = cell.textContent.trim().toLowerCase(); return v === "\u2014" ? null : v; }
    return v === "" ? null : parseFloat(v);
  }
  function sortBy(index, descending) {
    var rows = all();
    rows.sort(function (a, b) {
      var x = key(a, index), y = key(b, index);
      if (x === null || y === null) { return (x === null) - (y === null); }  // undefined values last
      var c = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    heads.forEach(function (h, i) {
      h.setAttribute("aria-sort", i === index ? (descending ? "descending" : "ascending") : "none");
    });
  }
  function activate(h, i) {
    // numbers: best first on the first activation (highest, or lowest where lower is better)
    var best = h.getAttribute("data-type") === "number" && h.getAttribute("data-higher") !== "0";
    var current = h.getAttribute("aria-sort");
    sortBy(i, current === "none" || current === null ? best : current === "ascending");
  }
  heads.forEach(function (h, i) {
    h.addEventListener("click", function () { activate(h, i); });
    h.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") { e.preventDefault(); activate(h, i); }
    });
  });
  apply();

  // ---------------------------------------------------------------- self-test
  function ordered(index, descending) {
    var last, seenNull = false, rows = all();
    for (var r = 0; r < rows.length; r++) {
      var v = key(rows[r], index);
      if (v === null) { seenNull = true; continue; }
      if (seenNull) { return false; }  // a value after an undefined one
      if (last !== undefined && (descending ? v > last : v < last)) { return false; }
      last = v;
    }
    return true;
  }
  function selftest() {
    var out = {failures: [], errors: errors};
    var fail = function (what) { out.failures.push(what); };
    var total = all().length;
    out.rows_total = total;
    out.rows_shown = shown().length;
    // search narrows rows to those that contain the query
    var first = shown()[0];
    var query = first ? first.getAttribute("data-search").split(" ")[0] : "";
    search.value = query; apply();
    out.search_query = query;
    out.search_rows = shown().length;
    if (!shown().every(function (r) { return r.getAttribute("data-search").indexOf(query) >= 0; })) { fail("search kept a non-matching row"); }
    search.value = "zzz-no-such-model"; apply();
    if (shown().length !== 0) { fail("search for a missing model left rows"); }
    search.value = ""; apply();
    // every filter: every option shows exactly the matching rows
    out.filters = {};
    var saved = filters.map(function (f) { return f.value; });
    filters.forEach(function (f) { f.value = ""; });
    filters.forEach(function (f) {
      var attr = f.getAttribute("data-attr"), counts = {};
      Array.prototype.forEach.call(f.options, function (o) {
        f.value = o.value; apply();
        var want = all().filter(function (r) { return !o.value || r.getAttribute("data-" + attr) === o.value; }).length;
        counts[o.value || "all"] = shown().length;
        if (shown().length !== want) { fail("filter " + attr + "=" + o.value + " shows " + shown().length + " of " + want); }
      });
      f.value = ""; apply();
      out.filters[attr] = counts;
    });
    filters.forEach(function (f, i) { f.value = saved[i]; });
    apply();
    // puzzle filter: the chosen puzzle's columns, no other puzzle's
    out.puzzles = {};
    Array.prototype.forEach.call(puzzle.options, function (o) {
      if (!o.value) { return; }
      puzzle.value = o.value; apply();
      var on = heads.filter(function (h) { return h.getAttribute("data-puzzle") && h.style.display !== "none"; });
      out.puzzles[o.value] = on.length;
      if (!on.length || on.some(function (h) { return h.getAttribute("data-puzzle") !== o.value; })) { fail("puzzle filter " + o.value); }
    });
    puzzle.value = ""; apply();
    // column selector hides and shows a column, header and cells
    var box = boxes.filter(function (b) { return b.checked; })[0];
    if (box) {
      var col = box.getAttribute("data-col");
      box.checked = false; box.dispatchEvent(new Event("change"));
      var cells = Array.prototype.slice.call(table.querySelectorAll('[data-col="' + col + '"]'));
      if (!cells.length || cells.some(function (c) { return c.style.display !== "none"; })) { fail("column selector did not hide " + col); }
      box.checked = true; box.dispatchEvent(new Event("change"));
      if (cells.some(function (c) { return c.style.display === "none"; })) { fail("column selector did not show " + col); }
      out.column_toggled = col;
    }
    // sorting by mouse, both ways, every column
    out.sorted_by_mouse = 0;
    heads.forEach(function (h, i) {
      for (var pass = 0; pass < 2; pass++) {
        h.click();
        var desc = h.getAttribute("aria-sort") === "descending";
        if (!ordered(i, desc)) { fail("mouse sort " + h.textContent.trim() + (desc ? " desc" : " asc")); }
        if (all().length !== total) { fail("sort lost rows"); }
      }
      out.sorted_by_mouse++;
    });
    // sorting by keyboard: every header is focusable and sorts on Enter and on Space
    out.sorted_by_keyboard = 0;
    heads.forEach(function (h, i) {
      if (h.tabIndex !== 0) { fail("header not focusable: " + h.textContent.trim()); }
      h.focus();
      ["Enter", " "].forEach(function (k) {
        var before = h.getAttribute("aria-sort");
        h.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
        var after = h.getAttribute("aria-sort");
        if (after === before || after === "none" || !ordered(i, after === "descending")) { fail("keyboard sort " + h.textContent.trim()); }
      });
      out.sorted_by_keyboard++;
    });
    heads[0].click();  // back to rank order
    if (heads[0].getAttribute("aria-sort") !== "ascending") { heads[0].click(); }
    out.csv_href = document.getElementById("csv-link").getAttribute("href");
    out.links = Array.prototype.map.call(document.querySelectorAll("a[href]"), function (a) { return a.getAttribute("href"); });
    out.drill_links = document.querySelectorAll("a.drill").length;
    out.page_overflow = document.documentElement.scrollWidth > window.innerWidth + 1;
    out.window_width = window.innerWidth;
    if (out.page_overflow) { fail("the page is wider than the window (" + document.documentElement.scrollWidth + " px)"); }
    out.models = shown().map(function (r) { return r.cells[1].textContent.trim(); });
    out.pass = !out.failures.length && !errors.length;
    document.getElementById("selftest-result").textContent = (out.pass ? "PASS " : "FAIL ") + JSON.stringify(out);
  }
  if (window.location.hash === "#selftest") { selftest(); }
})();
