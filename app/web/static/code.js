/* docschat code view: "#L10-L20" (a code source's line link) marks lines 10 to 20 and scrolls to them. */
(function () {
  "use strict";
  function mark() {
    var match = /^#L(\d+)(?:-L(\d+))?$/.exec(window.location.hash);
    document.querySelectorAll("tr.hl").forEach(function (row) { row.classList.remove("hl"); });
    if (!match) return;
    var first = Number(match[1]), last = Number(match[2] || match[1]);
    for (var n = first; n <= last && n - first < 5000; n++) {
      var row = document.getElementById("L" + n);
      if (row) row.classList.add("hl");
    }
    var start = document.getElementById("L" + first);
    if (start) start.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", mark);
  mark();
})();
