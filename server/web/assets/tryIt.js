// /docs/api's try-it forms (server/site/tryItForm.ts): shown only where this runs. Send asks the form's operation at this
// page's own origin with fetch, the key in the Authorization header (never in the address; no cookies), and shows the
// status, every response header and the body, pretty-printed when it is JSON. The key is kept in the page alone: what is
// typed in one form's key field fills the others, and nothing is stored.
(function () {
  'use strict';
  var forms = document.querySelectorAll('form.try-it');
  var keyFields = document.querySelectorAll('input[data-try-key]');
  Array.prototype.forEach.call(keyFields, function (field) {
    field.addEventListener('input', function () {
      Array.prototype.forEach.call(keyFields, function (other) { if (other !== field) other.value = field.value; });
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.try-it-off'), function (note) { note.hidden = true; });

  Array.prototype.forEach.call(forms, function (form) {
    var result = document.getElementById(form.id + '-result');
    if (!result) return;
    var shown = {
      request: result.querySelector('[data-try-request]'),
      status: result.querySelector('[data-try-status]'),
      headers: result.querySelector('[data-try-headers]'),
      body: result.querySelector('[data-try-body]'),
    };
    var button = form.querySelector('button[type="submit"]');
    var key = form.querySelector('input[data-try-key]');

    /** The query of the filled-in parameters, in the form's order; empty ones are left out (the API's default). */
    function query() {
      var params = new URLSearchParams();
      Array.prototype.forEach.call(form.elements, function (element) {
        if (element.name && element.value.trim() !== '') params.append(element.name, element.value.trim());
      });
      var text = params.toString();
      return text ? '?' + text : '';
    }

    function show(request, status, headers, body) {
      shown.request.textContent = request;
      shown.status.textContent = status;
      shown.headers.textContent = headers;
      shown.body.textContent = body;
      result.hidden = false;
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var url = form.getAttribute('action') + query();
      var headers = { Accept: 'application/json' };
      var typed = key.value.trim();
      if (typed !== '') headers.Authorization = 'Bearer ' + typed;
      button.disabled = true;
      show('GET ' + url, form.getAttribute('data-sending'), '', '');
      var started = Date.now();
      fetch(url, { headers: headers, credentials: 'omit', cache: 'no-store' })
        .then(function (response) {
          return response.text().then(function (text) {
            var lines = [];
            response.headers.forEach(function (value, name) { lines.push(name + ': ' + value); });
            var body = text;
            try { body = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as it came */ }
            var status = String(response.status) + (response.statusText ? ' ' + response.statusText : '');
            show('GET ' + url + ' · ' + (Date.now() - started) + ' ms', status, lines.join('\n'), body);
          });
        })
        .catch(function (error) {
          show('GET ' + url, form.getAttribute('data-failed') + (error && error.message ? error.message : String(error)), '', '');
        })
        .then(function () { button.disabled = false; });
    });
    form.hidden = false;
  });
})();
