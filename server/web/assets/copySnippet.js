// A Copy button (hidden without this script, where the text is selected and copied by hand) that puts a text on the
// clipboard and says so: the place page's widget code (a read-only field, which selects itself when focused), the
// dashboard's new key (an element's text) and its sample request.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('button[data-copy]'), function (button) {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-status'));
    if (!field || !status) return;
    var isField = typeof field.select === 'function';
    function say(text) { status.textContent = text; }
    function text() { return isField ? field.value : field.textContent; }
    // The older way, where the clipboard API is missing or refused (a page not in a secure context).
    function copyBySelection() {
      if (isField) {
        field.focus();
        field.select();
      } else {
        var range = document.createRange();
        range.selectNodeContents(field);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      try { return document.execCommand('copy'); } catch (e) { return false; }
    }
    button.addEventListener('click', function () {
      var done = button.getAttribute('data-copied');
      var failed = button.getAttribute('data-failed');
      say('');
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text()).then(function () { say(done); }, function () { say(copyBySelection() ? done : failed); });
      } else {
        say(copyBySelection() ? done : failed);
      }
    });
    if (isField) field.addEventListener('focus', function () { field.select(); });
    button.hidden = false;
  });
})();
