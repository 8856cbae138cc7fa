// The Ramadan timetable kept open: keeps what it shows true on the browser's clock. Today's row marked (each row
// says when its local day starts and ends); from the eve of the first fast (the box's data-from) to the last iftar,
// the next suhoor's end or iftar with a countdown, taken from the table's own times; once the last day is over, a
// prompt to reload (the page then shows the next Ramadan). It ticks every second, and at once when the page is shown
// again (a phone waking). Without this script the page as served stays true until it expires (at the next suhoor or
// iftar, or the place's midnight).
(function () {
  'use strict';
  var box = document.getElementById('ramadan-next');
  var prompt = document.getElementById('reload-prompt');
  var table = document.querySelector('table.ramadan');
  if (!box || !prompt || !table) return;
  var label = box.querySelector('.next-label');
  var time = box.querySelector('time');
  var counting = box.querySelector('.next-in');
  var left = box.querySelector('.next-left');
  var rows = Array.prototype.slice.call(table.querySelectorAll('tbody tr'));
  var events = Array.prototype.slice.call(table.querySelectorAll('time[data-fast]')).map(function (cell) {
    return { at: Date.parse(cell.getAttribute('datetime')), iso: cell.getAttribute('datetime'), kind: cell.getAttribute('data-fast'), text: cell.textContent };
  }).sort(function (a, b) { return a.at - b.at; });
  var from = Date.parse(box.getAttribute('data-from'));
  var ends = Date.parse(table.getAttribute('data-ends'));
  var stale = false;

  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function set(element, attribute, value) {
    if (value === null) { if (element.hasAttribute(attribute)) element.removeAttribute(attribute); }
    else if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
  }
  function text(element, value) { if (element && element.textContent !== value) element.textContent = value; }

  function tick() {
    if (stale) return;
    var now = Date.now();
    if (now >= ends) {
      // This Ramadan is over: its times stay as a record, but the page no longer shows the coming one.
      stale = true;
      box.hidden = true;
      rows.forEach(function (row) { row.classList.remove('today'); set(row, 'aria-current', null); });
      prompt.hidden = false;
      return;
    }
    rows.forEach(function (row) {
      var isToday = Date.parse(row.getAttribute('data-starts')) <= now && now < Date.parse(row.getAttribute('data-ends'));
      row.classList.toggle('today', isToday);
      set(row, 'aria-current', isToday ? 'date' : null);
    });
    var next = null;
    if (now >= from) for (var i = 0; i < events.length && !next; i++) if (events[i].at > now) next = events[i];
    if (!next) { box.hidden = true; return; }
    text(label, box.getAttribute(next.kind === 'suhoor' ? 'data-label-suhoor' : 'data-label-iftar'));
    set(time, 'datetime', next.iso);
    text(time, next.text);
    var s = Math.floor((next.at - now) / 1000);
    text(left, pad(Math.floor(s / 3600)) + ':' + pad(Math.floor(s / 60) % 60) + ':' + pad(s % 60));
    counting.hidden = false;
    box.hidden = false;
  }

  // A reload, not a plain visit of the link: the copy the browser keeps may still count as fresh by its own clock.
  var reload = prompt.querySelector('a');
  if (reload) reload.addEventListener('click', function (event) { event.preventDefault(); location.reload(); });

  tick();
  setInterval(tick, 1000);
  document.addEventListener('visibilitychange', function () { if (!document.hidden) tick(); });
  window.addEventListener('pageshow', tick);
  window.addEventListener('focus', tick);
})();
