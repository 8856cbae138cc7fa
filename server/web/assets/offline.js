// Offline use. On every page of the site: registers the service worker (its URL is the script tag's
// data-service-worker), which keeps the places viewed for use without a connection (sw.js). On the offline page: lists
// the place pages kept on this device, newest first, named by their heading, from the cache the worker keeps them in
// (the box's data-cache; data-prefixes: where place pages live).
(function () {
  'use strict';
  var script = document.currentScript;
  if (!('serviceWorker' in navigator) || !script) return;
  navigator.serviceWorker.register(script.getAttribute('data-service-worker')).catch(function () {
    // Refused (a private window, a browser setting): the site works as it does without this script.
  });

  var box = document.getElementById('kept-places');
  var none = document.getElementById('no-kept-places');
  var list = box && box.querySelector('ul');
  if (!list || !none || !('caches' in window)) return;
  var prefixes = (box.getAttribute('data-prefixes') || '').split(' ').filter(Boolean);
  var isPlace = function (path) {
    return prefixes.some(function (prefix) { return path.indexOf(prefix) === 0 && path.slice(prefix.length).split('/').length === 3; });
  };

  caches.open(box.getAttribute('data-cache'))
    .then(function (cache) {
      return cache.keys().then(function (requests) {
        var places = requests.filter(function (request) { return isPlace(new URL(request.url).pathname); }).reverse();
        return Promise.all(places.map(function (request) {
          return cache.match(request).then(function (response) { return response.text(); }).then(function (text) {
            var kept = new DOMParser().parseFromString(text, 'text/html');
            var heading = kept.querySelector('h1');
            var url = new URL(request.url);
            return { href: url.pathname + url.search, name: heading ? heading.textContent : url.pathname, lang: kept.documentElement.getAttribute('lang') };
          });
        }));
      });
    })
    .then(function (places) {
      places.forEach(function (place) {
        var item = document.createElement('li');
        var link = document.createElement('a');
        link.setAttribute('href', place.href);
        if (place.lang) link.setAttribute('lang', place.lang);
        link.textContent = place.name;
        item.appendChild(link);
        list.appendChild(item);
      });
      box.hidden = places.length === 0;
      none.hidden = places.length > 0;
    })
    .catch(function () {
      none.hidden = false;
    });
})();
