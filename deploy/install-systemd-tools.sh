#!/bin/sh
# Installs Debian's systemd for `systemd-analyze`, with which deploy/systemd/systemd.test.ts checks the unit files in
# deploy/systemd/ (`systemd-analyze verify`, `systemd-analyze security --offline`), when /usr/bin/systemd-analyze is
# missing. Quiet and idempotent: with it present it does nothing. Nothing is started or enabled: the test reads unit
# files, it does not run them (a container has no systemd as PID 1).
set -eu

ANALYZE=/usr/bin/systemd-analyze
[ -x "$ANALYZE" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=
elif command -v sudo >/dev/null 2>&1; then
  SUDO=sudo
else
  echo "$ANALYZE is missing and installing it needs root: apt-get install systemd" >&2
  exit 1
fi

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
echo "installing systemd (Debian package) for systemd-analyze, the unit files' test"
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 systemd; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "installing systemd failed: the unit files' test cannot run without systemd-analyze" >&2
  exit 1
fi
[ -x "$ANALYZE" ] || { echo "apt-get installed systemd, but $ANALYZE is not there" >&2; exit 1; }
"$ANALYZE" --version | head -n 1
