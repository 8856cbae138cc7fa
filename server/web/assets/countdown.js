// The place page's countdown: marks the next prayer in today's table and counts down to it, every second. The page
// shows the same (as of when it was rendered) without this script; this only keeps it current.
(function () {
  'use strict';
  var box = document.getElementById('next-prayer');
  if (!box) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll('.today-times tr[data-at]'));
  var name = box.querySelector('.next-name');
  var left = box.querySelector('.next-left');
  var tomorrow = box.getAttribute('data-tomorrow-at');
  var tomorrowName = box.getAttribute('data-tomorrow-name');
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function tick() {
    var now = Date.now();
    var next;
    rows.forEach(function (row) {
      var at = Date.parse(row.getAttribute('data-at'));
      var isNext = !next && at > now;
      if (isNext) next = { row: row, at: at };
      row.classList.toggle('next', isNext);
      if (isNext) row.setAttribute('aria-current', 'time'); else row.removeAttribute('aria-current');
    });
    var at = next ? next.at : Date.parse(tomorrow || '');
    if (!(at > now)) { box.hidden = true; return; }
    box.hidden = false;
    if (name) name.textContent = next ? next.row.getAttribute('data-name') : tomorrowName;
    var s = Math.floor((at - now) / 1000);
    if (left) left.textContent = pad(Math.floor(s / 3600)) + ':' + pad(Math.floor(s / 60) % 60) + ':' + pad(s % 60);
  }
  tick();
  setInterval(tick, 1000);
})();
