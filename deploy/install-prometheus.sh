#!/bin/sh
# Installs Debian's prometheus (the server and promtool) for the metrics' tests (deploy/prometheus/prometheus.test.ts:
# promtool check and test rules, promtool check metrics, and a real Prometheus scraping a real server) when
# /usr/bin/prometheus or /usr/bin/promtool is missing. Quiet and idempotent: with both present it does nothing.
#
# The package must not start its service (it would listen on port 9090 and scrape nothing of ours): the tests run
# their own Prometheus on a free loopback port with a configuration and data directory of their own. As for nginx
# (deploy/install-nginx.sh), a policy-rc.d that answers "do not start" is put in place for the install when there is
# none, and a service started anyway is stopped. No recommended packages (prometheus-node-exporter and the like).
set -eu

PROMETHEUS=/usr/bin/prometheus
PROMTOOL=/usr/bin/promtool
[ -x "$PROMETHEUS" ] && [ -x "$PROMTOOL" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=
elif command -v sudo >/dev/null 2>&1; then
  SUDO=sudo
else
  echo "$PROMETHEUS is missing and installing it needs root: apt-get install --no-install-recommends prometheus" >&2
  exit 1
fi

POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=
LOG=$(mktemp)
cleanup() {
  if [ -n "$OWN_POLICY" ]; then $SUDO rm -f "$POLICY"; fi
  rm -f "$LOG"
}
trap cleanup EXIT
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# Put here by deploy/install-prometheus.sh while prometheus installs; removed after.\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 755 "$POLICY"
  OWN_POLICY=1
fi

echo "installing prometheus (Debian package) for the metrics' tests"
export DEBIAN_FRONTEND=noninteractive
# apt, dpkg and the maintainer scripts talk a lot: their output is shown only when the install fails.
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 prometheus; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "installing prometheus failed: the metrics' tests cannot run without it" >&2
  exit 1
fi
for binary in "$PROMETHEUS" "$PROMTOOL"; do
  [ -x "$binary" ] || { echo "apt-get installed prometheus, but $binary is not there" >&2; exit 1; }
done
# Should a service have started despite the policy, it is stopped (nothing of ours listens on 9090).
{ $SUDO service prometheus stop || true; } >/dev/null 2>&1
"$PROMETHEUS" --version 2>&1 | head -n 1
