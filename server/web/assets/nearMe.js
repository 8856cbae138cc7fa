// Near me and my place. "Use my location": shown only where the browser has geolocation, it asks for the position and
// goes to the near page (`/tr/yakin?lat=&lon=`, `/en/near?lat=&lon=`), which redirects to the nearest place's page.
// The position is sent rounded to four decimals (about 11 m). A place page is remembered as the last place viewed on
// this device (localStorage), and the homes, whose HTML is the same for everyone, offer it at the top.
(function () {
  'use strict';
  var KEY = 'prayer-times.last-place';
  var PLACE_PATH = /^[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+$/;
  var widget = document.querySelector('.near-me');

  var here = widget && widget.getAttribute('data-place-path');
  if (here) {
    try {
      localStorage.setItem(KEY, JSON.stringify({ path: here, name: widget.getAttribute('data-place-name') }));
    } catch (e) {
      // Storage refused: nothing is remembered, nothing else changes.
    }
  }

  var slot = document.getElementById('last-place');
  if (slot) {
    var last = null;
    try {
      last = JSON.parse(localStorage.getItem(KEY) || 'null');
    } catch (e) {
      last = null;
    }
    if (last && typeof last.path === 'string' && PLACE_PATH.test(last.path) && typeof last.name === 'string' && last.name) {
      var link = slot.querySelector('a');
      link.setAttribute('href', slot.getAttribute('data-prefix') + '/' + last.path);
      link.textContent = last.name;
      slot.hidden = false;
    }
  }

  if (!widget || !('geolocation' in navigator)) return;
  var button = widget.querySelector('button');
  var status = widget.querySelector('[role="status"]');
  button.hidden = false;
  button.addEventListener('click', function () {
    button.disabled = true;
    status.textContent = widget.getAttribute('data-locating');
    navigator.geolocation.getCurrentPosition(
      function (position) {
        var c = position.coords;
        location.assign(widget.getAttribute('data-near') + '?lat=' + c.latitude.toFixed(4) + '&lon=' + c.longitude.toFixed(4));
      },
      function (error) {
        button.disabled = false;
        status.textContent = widget.getAttribute(error.code === error.PERMISSION_DENIED ? 'data-denied' : 'data-failed');
      },
      { maximumAge: 600000, timeout: 20000 },
    );
  });
})();
