#!/bin/sh
# Installs Debian's redis-server for the fleet-mode tests (tests start their own server on a free loopback port:
# testing/redisServer.ts; the package's own service is never used). Quiet and idempotent: with redis-server present
# it does nothing. `make test` runs it (the `redis` target), and so does CI (.ci/run runs `make test`).
# Valkey speaks the same commands; production may use either (docs/fleet.md, "In production").
set -eu

[ -x /usr/bin/redis-server ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=
elif command -v sudo >/dev/null 2>&1; then
  SUDO=sudo
else
  echo "redis-server is missing and installing it needs root: apt-get install redis-server" >&2
  echo "the fleet-mode tests cannot run without it" >&2
  exit 1
fi

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
echo "installing redis-server (Debian package) for the fleet-mode tests"
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 redis-server; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "installing redis-server failed: the fleet-mode tests cannot run without it" >&2
  exit 1
fi
# The package may start its own service on 6379; the tests never use it, and a stopped one is quieter.
{ $SUDO service redis-server stop || true; } >/dev/null 2>&1
[ -x /usr/bin/redis-server ] || { echo "apt-get installed redis-server, but /usr/bin/redis-server is not there" >&2; exit 1; }
/usr/bin/redis-server --version
