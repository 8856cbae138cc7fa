# The operator's entry points (contract, "Operator interface"). Every target installs what it needs first.
.PHONY: install run test precompute bench

NPM_STAMP := node_modules/.install-stamp

install: $(NPM_STAMP)

# npm ci installs exactly the lock file. npm 11 runs no install scripts unless approved; the native packages
# (uWebSockets.js, lmdb, msgpackr) ship prebuilt binaries, and a test checks that they load.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

run: install
	npm start

test: install
	npm run typecheck
	npm test

precompute: install
	@echo "make precompute: not available yet (issue 5, precompute yearly timetables into LMDB)." >&2; exit 2

bench: install
	@echo "make bench: not available yet (issue 8, benchmarks, load and faults)." >&2; exit 2
