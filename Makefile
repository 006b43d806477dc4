# Wildtrack: `make start` serves the console on http://localhost:8080; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := start

STAMP := node_modules/.wildtrack-install
WEB_SOURCES := $(shell find apps/web/src apps/web/index.html apps/web/vite.config.ts apps/web/public packages/contract/src -type f 2>/dev/null)
SERVER_SOURCES := $(shell find apps/server/src apps/server/build.mjs packages/contract/src packages/sample-fleet/src -type f 2>/dev/null)

.PHONY: start test install build lint typecheck timed-lint timed-typecheck unit e2e browser gdal clean

start: build
	node apps/server/dist/main.js

$(STAMP): package.json package-lock.json packages/contract/package.json packages/sample-fleet/package.json apps/server/package.json apps/web/package.json e2e/package.json bench/package.json
	npm ci --no-audit --no-fund
	@touch $@

install: $(STAMP)

apps/web/dist/index.html: $(STAMP) $(WEB_SOURCES)
	npm run build -w @wildtrack/web

apps/server/dist/main.js: $(STAMP) $(SERVER_SOURCES)
	npm run build -w @wildtrack/server

build: apps/web/dist/index.html apps/server/dist/main.js

# Debian's chromium for the browser specs (Playwright drives it; no browser download), and a CJK font
# so that the zh-CN screenshots show Chinese rather than empty boxes.
browser:
	@{ command -v chromium >/dev/null 2>&1 && fc-list :lang=zh 2>/dev/null | grep -q .; } || { \
	  echo "Installing Debian's chromium and a Chinese font for the browser specs"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null; }

# GDAL's ogrinfo: an independent reader of the GeoJSON, GPX, KML files the exports write (geodata.test and
# fence-export.test run it when present and say they skipped when not). Best effort: a machine without the
# package archive still runs every other test.
gdal:
	@command -v ogrinfo >/dev/null 2>&1 || { \
	  echo "Installing Debian's gdal-bin (ogrinfo) for the geodata tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  { $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdal-bin >/dev/null; } \
	    || echo "gdal-bin could not be installed: the ogrinfo checks will say they skipped"; }

lint: install
	npm run lint

typecheck: install
	npm run typecheck

unit: install
	npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json

e2e: build browser
	cd e2e && npx vitest run --config vitest.config.ts --reporter=default --reporter=json --outputFile.json=../test-results/e2e.json

# Every phase runs even when an earlier one failed (a red lint should not hide a red e2e), each one's time is
# recorded (scripts/phase.mjs), and the summary prints them with the slowest test files; it fails when any
# phase or test did. Lint and typecheck run side by side as one phase: each is one single-threaded process
# (CI of db082ab: 22 s and 45 s one after the other, a core idle throughout); their outputs stay apart.
test: install browser gdal
	@rm -rf test-results
	-@node scripts/phase.mjs lint+typecheck -- $(MAKE) --no-print-directory -j2 --output-sync=target timed-lint timed-typecheck
	-@node scripts/phase.mjs unit -- $(MAKE) --no-print-directory unit
	-@node scripts/phase.mjs build -- $(MAKE) --no-print-directory build
	-@node scripts/phase.mjs e2e -- $(MAKE) --no-print-directory e2e
	@node scripts/test-summary.mjs test-results/unit.json test-results/e2e.json

# lint and typecheck inside `make test`'s lint+typecheck phase, each timed as a part of it (MAKEFLAGS cleared:
# each is one command, and a make started by node has no jobserver to share, which make warned about)
timed-lint:
	@node scripts/phase.mjs --part lint -- env MAKEFLAGS= $(MAKE) --no-print-directory lint
timed-typecheck:
	@node scripts/phase.mjs --part typecheck -- env MAKEFLAGS= $(MAKE) --no-print-directory typecheck

clean:
	rm -rf apps/web/dist apps/server/dist test-results
