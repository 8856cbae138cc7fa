#!/bin/sh
# Installs Debian's prometheus (the server and promtool) for the metrics' tests (deploy/prometheus/prometheus.test.ts:
# promtool check and test rules, promtool check metrics, and a real Prometheus scraping a real server) when
# /usr/bin/prometheus or /usr/bin/promtool is missing. Quiet and idempotent: with both present it does nothing.
#
# The package must not start its service (it would listen on port 9090 and scrape nothing of ours): the tests run
# their own Prometheus on a free loopback port with a configuration and data directory of their own. As for nginx,
# the install runs with a policy-rc.d that says "do not start" (deploy/debian-packages.sh), and a service started
# anyway is stopped. No recommended packages (prometheus-node-exporter and the like).
set -eu
. "$(dirname "$0")/debian-packages.sh"

PROMETHEUS=/usr/bin/prometheus
PROMTOOL=/usr/bin/promtool
[ -x "$PROMETHEUS" ] && [ -x "$PROMTOOL" ] && exit 0
as_root "$PROMETHEUS is missing and installing it needs root: apt-get install --no-install-recommends prometheus" || exit 1

apt_install_not_started "the metrics' tests" prometheus ||
  { echo "installing prometheus failed: the metrics' tests cannot run without it" >&2; exit 1; }
for binary in "$PROMETHEUS" "$PROMTOOL"; do
  [ -x "$binary" ] || { echo "apt-get installed prometheus, but $binary is not there" >&2; exit 1; }
done
# Should a service have started despite the policy, it is stopped (nothing of ours listens on 9090).
{ $SUDO service prometheus stop || true; } >/dev/null 2>&1
"$PROMETHEUS" --version 2>&1 | head -n 1
