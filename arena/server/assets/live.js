// Live pages: on every ladder event, re-read this page and swap in its <main>. The page is
// whole without this script; it only saves a reload.
(function () {
  if (!window.EventSource) return;
  var main = document.getElementById("main");
  if (!main) return;
  var pending = null;
  function refresh() {
    pending = null;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var next = doc.getElementById("main");
        if (next && document.activeElement && main.contains(document.activeElement) && document.activeElement.tagName === "INPUT") return;
        if (next) { main.innerHTML = next.innerHTML; document.dispatchEvent(new Event("arena:refreshed")); }
      })
      .catch(function () {});
  }
  var es = new EventSource("/events");
  // An event sent between the page being made and the stream opening (a validation that
  // fails at once) would be missed: read the page again whenever the stream (re)opens.
  ["open", "match-started", "match-finished", "validated"].forEach(function (k) {
    es.addEventListener(k, function () { if (!pending) pending = setTimeout(refresh, 300); });
  });
})();
