#!/bin/sh
# Installs Debian's redis-server for the fleet-mode tests (tests start their own server on a free loopback port:
# testing/redisServer.ts; the package's own service is never used). Quiet and idempotent: with redis-server present
# it does nothing. `make test` runs it (the `redis` target), and so does CI (.ci/run runs `make test`).
# Valkey speaks the same commands; production may use either (docs/fleet.md, "In production").
set -eu
. "$(dirname "$0")/../deploy/debian-packages.sh"

[ -x /usr/bin/redis-server ] && exit 0
as_root "redis-server is missing and installing it needs root: apt-get install redis-server
the fleet-mode tests cannot run without it" || exit 1

apt_install "the fleet-mode tests" redis-server ||
  { echo "installing redis-server failed: the fleet-mode tests cannot run without it" >&2; exit 1; }
# The package may start its own service on 6379; the tests never use it, and a stopped one is quieter.
{ $SUDO service redis-server stop || true; } >/dev/null 2>&1
[ -x /usr/bin/redis-server ] || { echo "apt-get installed redis-server, but /usr/bin/redis-server is not there" >&2; exit 1; }
/usr/bin/redis-server --version
