#!/usr/bin/env bash
# `npm test`: the whole suite — unit, component, API and worker (on PGlite and on a PostgreSQL it starts itself),
# then end-to-end in Debian Chromium against the built app. Installs what npm does not (chromium, postgresql) when root.
# Every stage runs even when an earlier one failed, so one run shows every failure; the exit status says whether all
# passed.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh || exit 1

failed=()
stage() {
  local name=$1
  shift
  echo "── $name: $*"
  "$@" || failed+=("$name")
}

# The build skips type-checking (next.config.js); the whole tree, tests included, is checked here once.
stage typecheck npx tsc --noEmit
stage vitest npx vitest run
# Playwright's global setup builds the app first when the build is missing or older than the sources.
stage e2e npx playwright test

if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED — ${failed[*]}"
  exit 1
fi
echo "npm test: all stages passed"
