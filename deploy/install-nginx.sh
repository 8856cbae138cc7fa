#!/bin/sh
# Installs Debian's nginx for the reverse-proxy test (deploy/nginx.test.ts) when /usr/sbin/nginx is missing.
# Quiet and idempotent: with nginx present it does nothing.
#
# The package must not start a service: the test runs its own nginx on a loopback port, and nothing may be left
# listening on port 80 (nor may the install fail because the port is taken, or because there is no init system).
# The package's post-install script starts nginx through invoke-rc.d (or deb-systemd-invoke), and both ask
# /usr/sbin/policy-rc.d first: exit status 101 means "do not start". Containers usually have that policy; where
# there is none, one is put in place for the install and removed after it. Should a service start anyway, the one
# this install started is stopped.
set -eu

NGINX=/usr/sbin/nginx
[ -x "$NGINX" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=
elif command -v sudo >/dev/null 2>&1; then
  SUDO=sudo
else
  echo "$NGINX is missing and installing it needs root: apt-get install nginx" >&2
  exit 1
fi

POLICY=/usr/sbin/policy-rc.d
PIDFILE=/run/nginx.pid
OWN_POLICY=
LOG=$(mktemp)
cleanup() {
  if [ -n "$OWN_POLICY" ]; then $SUDO rm -f "$POLICY"; fi
  rm -f "$LOG"
}
trap cleanup EXIT
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# Put here by deploy/install-nginx.sh while nginx installs; removed after.\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 755 "$POLICY"
  OWN_POLICY=1
fi
HAD_PIDFILE=
if [ -e "$PIDFILE" ]; then HAD_PIDFILE=1; fi

echo "installing nginx (Debian package) for the reverse-proxy test"
export DEBIAN_FRONTEND=noninteractive
# apt, dpkg, debconf and invoke-rc.d talk a lot: their output is shown only when the install fails.
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 nginx; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "installing nginx failed" >&2
  exit 1
fi
if [ ! -x "$NGINX" ]; then
  echo "apt-get installed nginx, but $NGINX is not there" >&2
  exit 1
fi

if [ -z "$HAD_PIDFILE" ] && [ -s "$PIDFILE" ] && $SUDO kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "the nginx package started a service despite the policy; stopping it" >&2
  $SUDO "$NGINX" -s quit || $SUDO kill "$(cat "$PIDFILE")"
fi
"$NGINX" -v
