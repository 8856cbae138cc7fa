// The place page kept open: keeps what it shows true on the browser's clock. The next prayer (or sunrise, named as
// an event) with its name, time and a countdown; today's marked row; at the place's midnight the next day (the page
// holds it in <template id="next-day">) with its date, times and the month's marked row; past what the page holds, a
// prompt to reload in place of times that are no longer today's. It ticks every second, and at once when the page is
// shown again (a phone waking: timers were asleep and the clock has jumped). Without this script the page as served
// stays true until it expires (at the next prayer or the place's midnight). A copy the service worker answered without
// a connection (its #offline-notice shown: sw.js) past the days it holds cannot be reloaded: it marks today's row of
// the month's table instead (each row's data-ends, the body's data-starts) and says that today's times are there.
(function () {
  'use strict';
  var box = document.getElementById('next-prayer');
  var prompt = document.getElementById('reload-prompt');
  if (!box || !prompt) return;
  var label = box.querySelector('.next-label');
  var name = box.querySelector('.next-name');
  var time = box.querySelector('time');
  var counting = box.querySelector('.next-in');
  var left = box.querySelector('.next-left');
  var following = document.getElementById('next-day');
  var monthRows = Array.prototype.slice.call(document.querySelectorAll('table.month tbody tr'));
  var monthBody = document.querySelector('table.month tbody');
  var offlineNotice = document.getElementById('offline-notice');
  var offlineToday = document.getElementById('offline-today');
  var stale = false;

  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function set(element, attribute, value) {
    if (value === null) { if (element.hasAttribute(attribute)) element.removeAttribute(attribute); }
    else if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
  }
  function text(element, value) { if (element && element.textContent !== value) element.textContent = value; }
  function liveDay() { return document.querySelector('main [data-day-part="times"]'); }
  function ends(day) { return Date.parse(day.getAttribute('data-ends')); }

  // Tomorrow's parts take the place of today's, each where the part of the same name is.
  function turnDay() {
    all(following.content, '[data-day-part]').forEach(function (part) {
      var old = document.querySelector('main [data-day-part="' + part.getAttribute('data-day-part') + '"]');
      if (old) old.parentNode.replaceChild(document.importNode(part, true), old);
    });
    following.parentNode.removeChild(following);
    following = null;
  }

  // Nothing the page holds is true now: hide the day's date and times and the countdown, mark no day, ask to reload.
  function goStale() {
    stale = true;
    all(document, 'main [data-day-part]').forEach(function (part) { part.hidden = true; });
    box.hidden = true;
    all(document, 'main .today-times tr[data-at]').forEach(function (row) { row.classList.remove('next'); set(row, 'aria-current', null); });
    monthRows.forEach(function (row) { row.classList.remove('today'); set(row, 'aria-current', null); });
    prompt.hidden = false;
    staleOffline(Date.now());
  }

  // The month's row whose local day holds the instant, or null (another month, or a page without the instants).
  function monthRowAt(now) {
    var start = monthBody ? Date.parse(monthBody.getAttribute('data-starts')) : NaN;
    for (var i = 0; i < monthRows.length; i++) {
      var end = Date.parse(monthRows[i].getAttribute('data-ends'));
      if (now >= start && now < end) return monthRows[i];
      start = end;
    }
    return null;
  }

  // Stale and answered offline: today's row of the month marked, and said, in place of a reload that cannot help.
  function staleOffline(now) {
    if (!offlineNotice || offlineNotice.hidden || !offlineToday) return;
    var today = monthRowAt(now);
    monthRows.forEach(function (row) {
      row.classList.toggle('today', row === today);
      set(row, 'aria-current', row === today ? 'date' : null);
    });
    offlineToday.hidden = !today;
    prompt.hidden = !!today;
  }

  function tick() {
    if (stale) return staleOffline(Date.now());
    var now = Date.now();
    var day = liveDay();
    if (!day) return;
    if (now >= ends(day)) {
      var tomorrow = following && following.content.querySelector('[data-day-part="times"]');
      if (!tomorrow || now >= ends(tomorrow)) return goStale();
      turnDay();
      day = liveDay();
    }
    // The next time counted: the first instant still ahead, today's or (after the last) tomorrow's.
    var rows = all(day, 'tr[data-at]');
    var candidates = rows.concat(following ? all(following.content, 'tr[data-at]') : []);
    var next = null;
    for (var i = 0; i < candidates.length && !next; i++) {
      if (Date.parse(candidates[i].getAttribute('data-at')) > now) next = candidates[i];
    }
    if (!next) return goStale();
    rows.forEach(function (row) {
      var isNext = row === next;
      row.classList.toggle('next', isNext);
      set(row, 'aria-current', isNext ? 'time' : null);
    });
    var date = day.getAttribute('data-date');
    monthRows.forEach(function (row) {
      var cell = row.querySelector('th time');
      var isToday = !!cell && cell.getAttribute('datetime') === date;
      row.classList.toggle('today', isToday);
      set(row, 'aria-current', isToday ? 'date' : null);
    });
    var at = next.getAttribute('data-at');
    text(label, box.getAttribute(next.hasAttribute('data-event') ? 'data-label-event' : 'data-label-prayer'));
    text(name, next.getAttribute('data-name'));
    set(time, 'datetime', at);
    text(time, next.querySelector('time').textContent);
    var s = Math.floor((Date.parse(at) - now) / 1000);
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
