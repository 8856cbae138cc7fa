// The method and madhab chosen on a place page, remembered on this device (localStorage) for other place pages, the
// other language and later visits. The server never reads it: the choice travels in the URL (`?method=&madhab=`), so
// every place page's answer depends on its URL alone and shared caches may keep it. A page opened without the stored
// choice is replaced by the same page with it; links to other place pages carry it, so following them needs no second
// load. Choosing the default option (an empty value) forgets that part. Without this script the form is a GET form.
(function () {
  'use strict';
  var KEY = 'prayer-times.choice';
  var NAMES = ['method', 'madhab'];
  var form = document.querySelector('form[data-remember]');
  if (!form) return;

  function read() {
    try {
      var value = JSON.parse(localStorage.getItem(KEY) || '{}');
      return value && typeof value === 'object' ? value : {};
    } catch (e) {
      return {};
    }
  }
  function write(choice) {
    try {
      if (Object.keys(choice).length > 0) localStorage.setItem(KEY, JSON.stringify(choice));
      else localStorage.removeItem(KEY);
    } catch (e) {
      // Storage refused (a private window, a full disk): the URL still carries the choice on this page.
    }
  }
  // Only a value this page's select offers: one withdrawn since it was stored is dropped, never sent (a 400 page).
  function offered(name, value) {
    var select = form.elements.namedItem(name);
    return typeof value === 'string' && value !== '' && !!select &&
      Array.prototype.some.call(select.options, function (option) { return option.value === value; });
  }

  var url = new URL(location.href);
  var kept = read();
  var choice = {};
  NAMES.forEach(function (name) {
    // What the URL says wins (the form just sent, or a link that carries a choice); the rest comes from the device.
    var value = url.searchParams.has(name) ? url.searchParams.get(name) : kept[name];
    if (offered(name, value)) choice[name] = value;
  });
  write(choice);

  var missing = NAMES.filter(function (name) { return choice[name] && !url.searchParams.has(name); });
  if (missing.length > 0) {
    missing.forEach(function (name) { url.searchParams.set(name, choice[name]); });
    location.replace(url.href);
    return;
  }
  if (Object.keys(choice).length === 0) return;

  // A place page's path is `{prefix}/country/region/place` (the contract's paths); index pages and `.ics` are left as
  // they are.
  var prefixes = (form.getAttribute('data-remember') || '').split(' ').filter(Boolean);
  var placePath = /^\/[^/]+\/[^/]+\/[^/.]+$/;
  Array.prototype.forEach.call(document.querySelectorAll('a[href]'), function (link) {
    var target = new URL(link.href, location.href);
    if (target.origin !== location.origin) return;
    var isPlace = prefixes.some(function (prefix) {
      return target.pathname.indexOf(prefix + '/') === 0 && placePath.test(target.pathname.slice(prefix.length));
    });
    if (!isPlace) return;
    NAMES.forEach(function (name) { if (choice[name]) target.searchParams.set(name, choice[name]); });
    link.setAttribute('href', target.pathname + target.search + target.hash);
  });
})();
