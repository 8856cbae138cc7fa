#!/bin/sh
# Installs Debian's systemd for `systemd-analyze`, with which deploy/systemd/systemd.test.ts checks the unit files in
# deploy/systemd/ (`systemd-analyze verify`, `systemd-analyze security --offline`), when /usr/bin/systemd-analyze is
# missing. Quiet and idempotent: with it present it does nothing. Nothing is started or enabled: the test reads unit
# files, it does not run them (a container has no systemd as PID 1).
set -eu
. "$(dirname "$0")/debian-packages.sh"

ANALYZE=/usr/bin/systemd-analyze
[ -x "$ANALYZE" ] && exit 0
as_root "$ANALYZE is missing and installing it needs root: apt-get install systemd" || exit 1

apt_install "systemd-analyze, the unit files' test" systemd ||
  { echo "installing systemd failed: the unit files' test cannot run without systemd-analyze" >&2; exit 1; }
[ -x "$ANALYZE" ] || { echo "apt-get installed systemd, but $ANALYZE is not there" >&2; exit 1; }
"$ANALYZE" --version | head -n 1
