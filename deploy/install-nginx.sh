#!/bin/sh
# Installs Debian's nginx for the reverse-proxy test (deploy/nginx.test.ts) when /usr/sbin/nginx is missing.
# Quiet and idempotent: with nginx present it does nothing.
#
# The package must not start a service: the test runs its own nginx on a loopback port, and nothing may be left
# listening on port 80 (nor may the install fail because the port is taken, or because there is no init system).
# The install runs with a policy-rc.d that says "do not start" (deploy/debian-packages.sh). Should a service start
# anyway, the one this install started is stopped.
set -eu
. "$(dirname "$0")/debian-packages.sh"

NGINX=/usr/sbin/nginx
[ -x "$NGINX" ] && exit 0
as_root "$NGINX is missing and installing it needs root: apt-get install nginx" || exit 1

PIDFILE=/run/nginx.pid
HAD_PIDFILE=
if [ -e "$PIDFILE" ]; then HAD_PIDFILE=1; fi
apt_install_not_started "the reverse-proxy test" nginx || { echo "installing nginx failed" >&2; exit 1; }
if [ ! -x "$NGINX" ]; then
  echo "apt-get installed nginx, but $NGINX is not there" >&2
  exit 1
fi

if [ -z "$HAD_PIDFILE" ] && [ -s "$PIDFILE" ] && $SUDO kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "the nginx package started a service despite the policy; stopping it" >&2
  $SUDO "$NGINX" -s quit || $SUDO kill "$(cat "$PIDFILE")"
fi
"$NGINX" -v
