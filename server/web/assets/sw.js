// The service worker (served as /sw.js, so its scope is the whole site). It keeps the site usable without a
// connection and never shows an old time while there is one:
// - the site's static files of this deploy (stylesheet, scripts, icons) and the two offline pages are kept in a cache
//   named after the deploy's version, filled at install; a new deploy is a new version of this file, whose activation
//   deletes every older cache of ours;
// - place pages and the language homes are asked from the network first, always (revalidated, never an old copy);
//   each good answer is kept, the last CONFIG.keptPlaces place pages (query included) and the homes. Without a
//   network the kept copy is answered, its offline notice shown (the page's own words, hidden until then). The page's
//   month holds every day of its month, and countdown.js marks today's row in it;
// - any other page of the site, without a network, is answered with the offline page of its language (which lists the
//   kept places); the dashboard, the API, MCP, the widget and anything not a GET are never touched.
// CONFIG (the versioned file names, the paths, the notice's markup) is written in when the server starts
// (server/site/webApp.ts).
'use strict';
var CONFIG = /* CONFIG */ null;

function pathOf(url) {
  return new URL(url, self.location.href).pathname;
}

function isPlacePage(path) {
  return CONFIG.placePrefixes.some(function (prefix) {
    if (path.indexOf(prefix) !== 0) return false;
    var rest = path.slice(prefix.length).split('/');
    // country/region/place; `{place page}.ics` is a feed, not a page.
    return rest.length === 3 && rest.every(Boolean) && rest[2].indexOf('.') < 0;
  });
}

function isKept(path) {
  return isPlacePage(path) || CONFIG.homes.indexOf(path) >= 0;
}

function isSitePage(path) {
  return path === '/' || CONFIG.sitePrefixes.some(function (prefix) { return path === prefix || path.indexOf(prefix + '/') === 0; });
}

function languageOf(path) {
  return path === '/tr' || path.indexOf('/tr/') === 0 ? 'tr' : 'en';
}

self.addEventListener('install', function (event) {
  event.waitUntil(
    caches.open(CONFIG.shellCache)
      .then(function (cache) { return cache.addAll(CONFIG.shell); })
      .then(function () { return self.skipWaiting(); }),
  );
});

// The window that registered this worker was loaded before it: its page is kept now, from the browser's cache when it
// still holds it, so a place visited once opens without a network.
function keepOpenWindows() {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    return Promise.all(windows.map(function (client) {
      var url = new URL(client.url);
      if (url.origin !== self.location.origin || !isKept(url.pathname)) return undefined;
      return fetch(url.href, { credentials: 'same-origin', redirect: 'manual' })
        .then(function (response) { return keep(url, response); })
        .catch(function () { return undefined; });
    }));
  });
}

self.addEventListener('activate', function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.map(function (name) {
          var ours = name.indexOf(CONFIG.cachePrefix) === 0;
          return ours && name !== CONFIG.shellCache && name !== CONFIG.pagesCache ? caches.delete(name) : undefined;
        }));
      })
      .then(function () { return self.clients.claim(); })
      .then(keepOpenWindows),
  );
});

/** Keeps a good answer for a kept page; past CONFIG.keptPlaces place pages, the ones kept longest ago go. */
function keep(url, response) {
  if (response.status !== 200 || response.type !== 'basic') return Promise.resolve();
  return caches.open(CONFIG.pagesCache).then(function (cache) {
    return cache.put(url.href, response)
      .then(function () { return cache.keys(); })
      .then(function (requests) {
        // Keys come in the order they were put (a page put again moves to the end).
        var places = requests.filter(function (request) { return isPlacePage(pathOf(request.url)); });
        var over = places.length - CONFIG.keptPlaces;
        return Promise.all(places.slice(0, Math.max(0, over)).map(function (request) { return cache.delete(request); }));
      });
  });
}

/** The kept copy of a page, its offline notice shown; undefined when none is kept. */
function keptCopy(url) {
  return caches.open(CONFIG.pagesCache)
    .then(function (cache) { return cache.match(url.href, { ignoreVary: true }); })
    .then(function (copy) {
      if (!copy) return undefined;
      return copy.text().then(function (text) {
        var headers = new Headers(copy.headers);
        // The body is the decoded text, changed: its coding and length are no longer the network's.
        headers.delete('Content-Encoding');
        headers.delete('Content-Length');
        return new Response(text.replace(CONFIG.noticeHidden, CONFIG.noticeShown), { status: 200, statusText: 'OK', headers: headers });
      });
    });
}

function offlinePage(path) {
  return caches.match(CONFIG.offlinePages[languageOf(path)], { cacheName: CONFIG.shellCache }).then(function (page) {
    return page || Response.error();
  });
}

function networkFirst(event, url) {
  // `no-cache`: the server is asked every time (a 304 when nothing changed), so a page shown online is never a copy.
  return fetch(url.href, { cache: 'no-cache', credentials: 'same-origin', redirect: 'manual' })
    .then(function (response) {
      event.waitUntil(keep(url, response.clone()).catch(function () { return undefined; }));
      return response;
    }, function () {
      return keptCopy(url).then(function (copy) { return copy || offlinePage(url.pathname); });
    });
}

/** A file of this deploy from the cache; else the network; without one, the same file of this deploy (another version). */
function staticFile(request) {
  return caches.open(CONFIG.shellCache).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || fetch(request).catch(function () {
        // A kept page from before the last deploy links the files of its own version.
        return cache.match(request, { ignoreSearch: true }).then(function (same) { return same || Response.error(); });
      });
    });
  });
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (CONFIG.shellFiles.indexOf(url.pathname) >= 0) {
    event.respondWith(staticFile(request));
    return;
  }
  if (request.mode !== 'navigate') return;
  if (isKept(url.pathname)) {
    event.respondWith(networkFirst(event, url));
  } else if (isSitePage(url.pathname)) {
    event.respondWith(fetch(request).catch(function () { return offlinePage(url.pathname); }));
  }
});
