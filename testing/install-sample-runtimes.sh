#!/bin/sh
# Installs what the code samples' test (server/site/tryIt.test.ts) runs /docs/api's Python and PHP samples with:
# Debian's python3 with python3-requests, and php-cli (file_get_contents with a stream context needs nothing more),
# when /usr/bin/python3 cannot import requests or /usr/bin/php is missing. Quiet and idempotent: with both there it
# does nothing. `make test` runs it (the `samples` target), and so does CI (.ci/run runs `make test`).
#
# The test runs these Debian interpreters by path: a python3 earlier on PATH (pyenv, a virtualenv) is not the one
# this package installs into. Nothing is downloaded with pip, at test time or ever.
set -eu
. "$(dirname "$0")/../deploy/debian-packages.sh"

PYTHON=/usr/bin/python3
PHP=/usr/bin/php
has_requests() { [ -x "$PYTHON" ] && "$PYTHON" -c 'import requests' >/dev/null 2>&1; }
has_requests && [ -x "$PHP" ] && exit 0
as_root "$PYTHON with requests, or $PHP, is missing and installing them needs root: apt-get install python3-requests php-cli
the code samples' test (server/site/tryIt.test.ts) cannot run without them" || exit 1

apt_install "the code samples' test" python3 python3-requests php-cli ||
  { echo "installing python3-requests and php-cli failed: the code samples' test cannot run without them" >&2; exit 1; }
if ! has_requests || [ ! -x "$PHP" ]; then
  echo "apt-get installed python3-requests and php-cli, but $PYTHON cannot import requests or $PHP is not there" >&2
  exit 1
fi
"$PYTHON" -c 'import requests, sys; print("python", sys.version.split()[0], "requests", requests.__version__)'
"$PHP" --version | head -n 1
