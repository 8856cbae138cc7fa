// The qibla dial turning with the phone. The page draws the dial with north at the top and the arrow at the bearing;
// where the browser has device orientation, a button (hidden otherwise) starts the compass: the card turns so its north
// points north, and the arrow to the qibla turns with it, so the arrow points up when the phone faces the qibla.
// Headings: `deviceorientationabsolute` (Chrome, Android: alpha counter-clockwise from north), or on iOS Safari, after
// `DeviceOrientationEvent.requestPermission()` asked from the click, `webkitCompassHeading` (clockwise from north).
// A device that sends no heading within a few seconds is told so; the dial goes back to north at the top.
(function () {
  'use strict';
  var box = document.querySelector('.qibla-compass');
  if (!box || typeof window.DeviceOrientationEvent !== 'function') return;
  var button = box.querySelector('.compass-start');
  var svg = box.querySelector('svg');
  var card = svg.querySelector('.compass-card');
  var needle = svg.querySelector('.qibla-needle');
  var state = box.querySelector('.compass-state');
  var turn = box.querySelector('.compass-turn');
  var bearing = Number(box.getAttribute('data-bearing'));
  /** Within this many degrees either side the phone faces the qibla. */
  var FACING = 5;
  /** How long to wait for a first heading before saying the device gives none. */
  var WAIT_MS = 3000;
  var askPermission = typeof DeviceOrientationEvent.requestPermission === 'function';
  var eventName = askPermission ? 'deviceorientation' : 'ondeviceorientationabsolute' in window ? 'deviceorientationabsolute' : 'deviceorientation';
  var running = false;
  var heading = null;
  var frame = 0;
  var waiting = 0;

  var normal = function (degrees) { return ((degrees % 360) + 360) % 360; };
  var fixed = function (degrees) { return String(Math.round(degrees * 100) / 100); };

  /** The screen's turn from the device's natural orientation (landscape: 90 or 270), added to the device's heading. */
  function screenAngle() {
    if (screen.orientation && typeof screen.orientation.angle === 'number') return screen.orientation.angle;
    return typeof window.orientation === 'number' ? window.orientation : 0;
  }

  /** The heading of the screen's top edge, clockwise from north; null when the event carries none. */
  function headingOf(event) {
    if (typeof event.webkitCompassHeading === 'number' && !isNaN(event.webkitCompassHeading)) return normal(event.webkitCompassHeading + screenAngle());
    if ((event.type === 'deviceorientationabsolute' || event.absolute === true) && typeof event.alpha === 'number') return normal(360 - event.alpha + screenAngle());
    return null;
  }

  function draw() {
    frame = 0;
    if (!running || heading === null) return;
    card.setAttribute('transform', 'rotate(' + fixed(normal(-heading)) + ')');
    needle.setAttribute('transform', 'rotate(' + fixed(normal(bearing - heading)) + ')');
    // How far to turn, -180..180: positive is to the right (clockwise).
    var off = normal(bearing - heading + 180) - 180;
    var facing = Math.abs(off) <= FACING;
    if (facing !== box.classList.contains('facing')) {
      box.classList.toggle('facing', facing);
      state.textContent = box.getAttribute(facing ? 'data-facing' : 'data-on');
    }
    turn.textContent = facing ? '' : box.getAttribute(off > 0 ? 'data-turn-right' : 'data-turn-left').replace('{n}', String(Math.round(Math.abs(off))));
  }

  function onOrientation(event) {
    var h = headingOf(event);
    if (h === null) return;
    if (waiting) {
      clearTimeout(waiting);
      waiting = 0;
    }
    heading = h;
    if (!frame) frame = requestAnimationFrame(draw);
  }

  function start() {
    running = true;
    heading = null;
    box.classList.add('live');
    button.textContent = box.getAttribute('data-stop');
    state.textContent = box.getAttribute('data-on');
    window.addEventListener(eventName, onOrientation);
    waiting = setTimeout(function () { stop(box.getAttribute('data-missing')); }, WAIT_MS);
  }

  /** Back to the drawing the page came with: north at the top, the arrow at the bearing. */
  function stop(message) {
    running = false;
    window.removeEventListener(eventName, onOrientation);
    if (waiting) clearTimeout(waiting);
    waiting = 0;
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    box.classList.remove('live', 'facing');
    card.setAttribute('transform', 'rotate(0)');
    needle.setAttribute('transform', 'rotate(' + fixed(bearing) + ')');
    button.textContent = box.getAttribute('data-start');
    state.textContent = message || '';
    turn.textContent = '';
  }

  button.hidden = false;
  button.addEventListener('click', function () {
    if (running) return stop('');
    if (!askPermission) return start();
    // iOS asks the visitor, and only from a click.
    button.disabled = true;
    DeviceOrientationEvent.requestPermission().then(
      function (answer) {
        button.disabled = false;
        if (answer === 'granted') start();
        else stop(box.getAttribute('data-denied'));
      },
      function () {
        button.disabled = false;
        stop(box.getAttribute('data-denied'));
      },
    );
  });
})();
