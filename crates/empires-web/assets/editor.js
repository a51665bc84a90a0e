// Live checking for the order editor: the sheet is sent to the site's checker a moment
// after each change, and the messages, the listing and the forecast (or dry run) are
// redrawn from its answer, the same for every game. Without this script the page works the same, checked when the sheet is sent.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  var sheet = document.getElementById("sheet");
  var messages = document.getElementById("messages");
  if (!form || !sheet || !window.fetch) { return; }
  var url = form.getAttribute("data-check");
  var csrf = form.querySelector("input[name=csrf]").value;
  var timer = null;
  var seq = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function hint(d) { return d.hint || ""; }

  // The sheet as it is sent: the messages, where the game has them, after their heading.
  var heading = form.getAttribute("data-messages");
  function whole() {
    var text = sheet.value.replace(/\s+$/, "");
    var m = messages && heading ? messages.value.trim() : "";
    return m ? text + "\n\n" + heading + "\n" + m + "\n" : text + "\n";
  }

  function goTo(line) {
    var lines = sheet.value.split("\n");
    var at = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) { at += lines[i].length + 1; }
    sheet.focus();
    sheet.setSelectionRange(at, at + (lines[line - 1] || "").length);
  }

  function draw(report, text) {
    document.getElementById("check-summary").textContent = report.summary;
    var list = document.getElementById("diagnostics");
    list.textContent = "";
    report.diagnostics.forEach(function (d) {
      var li = el("li", d.severity === "error" ? "error" : "warning");
      var a = el("a", null, "line " + d.line + ", column " + d.column);
      a.href = "#sheet";
      a.addEventListener("click", function (ev) { ev.preventDefault(); goTo(d.line); });
      li.appendChild(a);
      li.appendChild(document.createTextNode(": "));
      li.appendChild(el("code", null, d.code));
      li.appendChild(document.createTextNode(" " + d.message + " "));
      var h = hint(d);
      if (h) { li.appendChild(el("span", "hint", h)); }
      list.appendChild(li);
    });
    var listing = document.getElementById("listing");
    listing.textContent = "";
    text.replace(/\n$/, "").split("\n").forEach(function (line, i) {
      var notes = report.diagnostics.filter(function (d) { return d.line === i + 1; });
      var row = el("div", notes.length ? "line marked" : "line");
      row.appendChild(el("span", "no", String(i + 1)));
      row.appendChild(el("span", "src", line));
      notes.forEach(function (d) {
        var h = hint(d);
        row.appendChild(el("div", "note-at " + (d.severity === "error" ? "error" : "warning"), d.code + ": " + d.message + (h ? " " + h : "")));
      });
      listing.appendChild(row);
    });
    var f = report.forecast || { title: "Check", note: "", columns: [], rows: [], text: report.text || "", end: "" };
    document.getElementById("forecast-title").textContent = f.title;
    document.getElementById("forecast-note").textContent = f.note;
    var table = document.getElementById("forecast");
    table.hidden = f.columns.length === 0;
    var body = table.querySelector("tbody");
    body.textContent = "";
    f.rows.forEach(function (r) {
      var tr = el("tr");
      r.forEach(function (v) { tr.appendChild(el("td", null, String(v))); });
      body.appendChild(tr);
    });
    var pre = document.getElementById("forecast-text");
    pre.hidden = !f.text;
    pre.textContent = f.text;
    document.getElementById("forecast-end").textContent = f.end;
  }

  function check() {
    var mine = ++seq;
    var text = whole();
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-CSRF-Token": csrf },
      body: text
    }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (report) { if (report && mine === seq) { draw(report, text); } })
      .catch(function () { /* the sheet is checked again when it is sent */ });
  }

  function later() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(check, 300);
  }

  sheet.addEventListener("input", later);
  if (messages) { messages.addEventListener("input", later); }
  Array.prototype.forEach.call(document.querySelectorAll("#diagnostics a[data-line]"), function (a) {
    a.addEventListener("click", function (ev) { ev.preventDefault(); goTo(Number(a.getAttribute("data-line"))); });
  });
})();
