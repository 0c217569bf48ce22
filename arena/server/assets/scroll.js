// Every table or log wider (or taller) than its box scrolls inside it on a small screen
// (style.css); this makes each such box keyboard-reachable (tabindex 0), so that it can be
// scrolled without a pointer. Browsers that already focus scrollers lose nothing; without
// JavaScript the pages work the same.
(function () {
  'use strict';
  function mark() {
    document.querySelectorAll('main table, main pre').forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls && !el.hasAttribute('tabindex')) {
        el.setAttribute('tabindex', '0');
        el.dataset.scroller = '1';
      } else if (!scrolls && el.dataset.scroller) {
        el.removeAttribute('tabindex');
        delete el.dataset.scroller;
      }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mark);
  else mark();
  window.addEventListener('resize', mark);
  // Live pages replace tables as matches finish.
  new MutationObserver(function () { window.requestAnimationFrame(mark); }).observe(document.documentElement, { childList: true, subtree: true });
})();
