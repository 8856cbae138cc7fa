// The dashboard's passkey buttons: "Sign in with a passkey" (sign-in page) and "Add a passkey" (passkeys page). Each
// block ([data-passkey]) is hidden in the HTML and shown here only when the browser can use passkeys, so without
// JavaScript a <noscript> note stands instead. A button asks the server for options (POST JSON, the CSRF token in
// X-CSRF-Token), runs the ceremony with @simplewebauthn/browser (its UMD bundle, loaded before this file, defines
// window.SimpleWebAuthnBrowser), posts the browser's response, then goes where the server says (sign-in) or reloads
// (registration). Messages come from the block's data- attributes, in the page's language. At an origin that is not
// the relying party's (data-rp-origin) the button stays off and the block's note says why, with a link to the page there.
(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;

  function postJson(url, csrf, body) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return null;
        })
        .then(function (data) {
          if (!response.ok) {
            var error = new Error((data && data.error && data.error.message) || '');
            error.serverCode = (data && data.error && data.error.code) || 'http_' + response.status;
            throw error;
          }
          return data;
        });
    });
  }

  function setUp(block) {
    var button = block.querySelector('[data-passkey-start]');
    var status = block.querySelector('[data-passkey-status]');
    var kind = block.getAttribute('data-passkey');
    var say = function (text) {
      status.textContent = text;
    };
    var elsewhere = block.querySelector('[data-passkey-elsewhere]');
    var showElsewhere = function () {
      button.disabled = true;
      say('');
      if (elsewhere) elsewhere.hidden = false;
    };
    block.hidden = false;
    // A browser offers a site's passkeys only on pages of the relying party's origin (never at an IP address such as
    // 127.0.0.1): at any other address the ceremony cannot work, so the block says why and links to this page there.
    var rpOrigin = block.getAttribute('data-rp-origin');
    if (rpOrigin && window.location.origin !== rpOrigin) {
      showElsewhere();
      return;
    }
    if (!lib || !lib.browserSupportsWebAuthn()) {
      button.disabled = true;
      say(block.getAttribute('data-unsupported'));
      return;
    }
    button.addEventListener('click', function () {
      var csrf = block.getAttribute('data-csrf');
      button.disabled = true;
      say(block.getAttribute('data-working'));
      postJson(block.getAttribute('data-options'), csrf, {})
        .then(function (options) {
          return kind === 'register' ? lib.startRegistration({ optionsJSON: options }) : lib.startAuthentication({ optionsJSON: options });
        })
        .then(function (response) {
          if (kind === 'register') {
            var name = block.querySelector('input[name="name"]');
            return postJson(block.getAttribute('data-verify'), csrf, { name: name ? name.value : '', response: response });
          }
          return postJson(block.getAttribute('data-verify'), csrf, response);
        })
        .then(function (result) {
          if (kind === 'register') window.location.reload();
          else window.location.assign((result && result.location) || '/dashboard');
        })
        .catch(function (error) {
          // The library wraps the browser's DOMException (its `cause`) and names known cases in `code`.
          var name = error && ((error.cause && error.cause.name) || error.name);
          button.disabled = false;
          if (error && error.serverCode) say(error.message || block.getAttribute('data-failed'));
          else if (name === 'SecurityError') showElsewhere();
          else if (error && (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')) say(block.getAttribute('data-exists'));
          else if (name === 'NotAllowedError' || name === 'AbortError' || (error && error.code === 'ERROR_CEREMONY_ABORTED')) say(block.getAttribute('data-cancelled'));
          else say(block.getAttribute('data-failed'));
        });
    });
  }

  var blocks = document.querySelectorAll('[data-passkey]');
  for (var i = 0; i < blocks.length; i++) setUp(blocks[i]);
})();
