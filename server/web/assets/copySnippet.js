// The place page's widget code: a Copy button (hidden without this script, where the read-only field is selected and
// copied by hand) that puts the code on the clipboard and says so; the field selects itself when focused.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('button[data-copy]'), function (button) {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-status'));
    if (!field || !status) return;
    function say(text) { status.textContent = text; }
    // The older way, where the clipboard API is missing or refused (a page not in a secure context).
    function copyBySelection() {
      field.focus();
      field.select();
      try { return document.execCommand('copy'); } catch (e) { return false; }
    }
    button.addEventListener('click', function () {
      var done = button.getAttribute('data-copied');
      var failed = button.getAttribute('data-failed');
      say('');
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(field.value).then(function () { say(done); }, function () { say(copyBySelection() ? done : failed); });
      } else {
        say(copyBySelection() ? done : failed);
      }
    });
    field.addEventListener('focus', function () { field.select(); });
    button.hidden = false;
  });
})();
