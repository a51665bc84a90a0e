// Live checking for the order sheet of a game of another ruleset (Napoleonic Empires): a
// moment after each change the sheet goes to the site's checker, and the check and dry run
// shown beside it are replaced by its answer. Without this script the page works the same,
// checked when the sheet is sent.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  var sheet = document.getElementById("sheet");
  var shown = document.getElementById("check-text");
  var title = document.getElementById("check-title");
  if (!form || !sheet || !shown || !window.fetch) { return; }
  var url = form.getAttribute("data-check");
  var csrf = form.querySelector("input[name=csrf]").value;
  var timer = null;
  var seq = 0;

  function heading(errors) {
    if (!errors) { return "Check and dry run"; }
    return "Check and dry run: " + errors + (errors === 1 ? " error" : " errors");
  }

  function check() {
    var mine = ++seq;
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-CSRF-Token": csrf },
      body: sheet.value
    }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (c && mine === seq) {
          shown.textContent = c.text;
          title.textContent = heading(c.errors);
        }
      })
      .catch(function () { /* the sheet is checked again when it is sent */ });
  }

  sheet.addEventListener("input", function () {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(check, 300);
  });
})();
