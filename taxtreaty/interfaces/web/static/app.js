// Light enhancements only; every page works without JavaScript.
(function () {
  "use strict";
  // "/" focuses the search box, as on most reference sites (not while typing in a field).
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (ev.key === "/" && !/INPUT|TEXTAREA|SELECT/.test(tag)) {
      var box = document.getElementById("site-q");
      if (box) { ev.preventDefault(); box.focus(); }
    }
  });
  // Bring a highlighted quote into view when the page was opened from a provision link.
  window.addEventListener("load", function () {
    var mark = document.querySelector("mark.quote");
    if (mark && !location.hash) { mark.scrollIntoView({ block: "center" }); }
  });
})();
