#!/bin/sh
# Installs Debian's chromium and a font for the browser tests (server/site/browser.test.ts, driven by
# playwright-core through testing/browser.ts) when they are missing. Quiet and idempotent: with both present it does
# nothing. `make test` runs it (the `chromium` target), and so does CI (.ci/run runs `make test`).
#
# It lives in testing/, not deploy/: deploy/ holds what an operator puts on a server (nginx in front of it), while
# chromium is only a tool of the test suite; no deployment needs it.
#
# Playwright never downloads a browser here (no `npx playwright install`): the tests launch this Debian package by
# path. The stylesheet names "DejaVu Sans" among its fallbacks, and without any font installed Chromium renders text
# as empty boxes in screenshots and PDFs: fonts-dejavu-core covers Latin with Turkish letters. Recommends are left
# out (upower, udev, mesa, notification-daemon… are of no use to a headless browser).
set -eu
. "$(dirname "$0")/../deploy/debian-packages.sh"

CHROMIUM=/usr/bin/chromium
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -x "$CHROMIUM" ] && [ -e "$FONT" ] && exit 0
as_root "$CHROMIUM (or the DejaVu font) is missing and installing it needs root: apt-get install chromium fonts-dejavu-core
the browser tests (server/site/browser.test.ts) cannot run without it" || exit 1

apt_install "the browser tests" chromium fonts-dejavu-core ||
  { echo "installing chromium failed: the browser tests (server/site/browser.test.ts) cannot run without $CHROMIUM" >&2; exit 1; }
if [ ! -x "$CHROMIUM" ] || [ ! -e "$FONT" ]; then
  echo "apt-get installed chromium and fonts-dejavu-core, but $CHROMIUM or $FONT is not there" >&2
  exit 1
fi
"$CHROMIUM" --version
