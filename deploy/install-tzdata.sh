#!/bin/sh
# Brings Debian's tzdata (the system's compiled zoneinfo, /usr/share/zoneinfo) up to at least the release of the
# pinned npm `tzdata` package, so that the server takes its zone rules from the newest tz database at hand (contract,
# "Time zones"; docs/time-zones.md). Quiet and idempotent: when the system's release is already as new, it does
# nothing. `make run` and `make test` run it (the `tzdata` target); an operator's machine runs the same apt commands
# (and apt keeps the package current from then on). zdump, which the zone tests compare against, comes with libc-bin.
#
# When the install cannot be done (no root, no apt), it says so and exits 0: the server then takes the npm package's
# rules and /healthz says which source it uses; the zone tests, which need the system's data, fail loudly.
set -eu
. "$(dirname "$0")/debian-packages.sh"

cd "$(dirname "$0")/.."
ZONEINFO=${TZDIR:-/usr/share/zoneinfo}
PACKAGE=$(node -p "require('tzdata/timezone-data.json').version" 2>/dev/null || echo "")
[ -n "$PACKAGE" ] || { echo "install-tzdata: npm packages are not installed yet (make install)" >&2; exit 1; }

# The release a tzdata.zi names in its first line (`# version 2026f`), or nothing.
system_release() {
  sed -n '1s/^# version //p' "$ZONEINFO/tzdata.zi" 2>/dev/null || true
}

# Releases compare as year, then letters (2026d < 2026f < 2027a); `sort -V` orders them so.
at_least_package() {
  [ -n "$1" ] && [ "$(printf '%s\n%s\n' "$1" "$PACKAGE" | sort -V | head -n 1)" = "$PACKAGE" ]
}

at_least_package "$(system_release)" && exit 0

as_root "install-tzdata: the system's tz database ($(system_release || true)) is older than the npm package's ($PACKAGE);
  as root: apt-get update && apt-get install tzdata. Until then the server uses the package's rules." || exit 0

if ! apt_install "the server's zone rules (the system's release $(system_release || echo none), the npm package's $PACKAGE)" tzdata; then
  echo "install-tzdata: apt-get failed; the server uses the npm package's rules ($PACKAGE)" >&2
  exit 0
fi
RELEASE=$(system_release)
if at_least_package "$RELEASE"; then
  echo "the system's tz database is $RELEASE"
else
  echo "install-tzdata: Debian's newest tzdata here is ${RELEASE:-none}, older than the npm package's $PACKAGE: the server uses the package" >&2
fi
