#!/usr/bin/env bash
# `npm test`: the whole suite — unit, component, API and worker (on PGlite and on a PostgreSQL it starts itself),
# then end-to-end in Debian Chromium against the built app. Installs what npm does not (chromium, postgresql) when root.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
# The build skips type-checking (next.config.mjs); the whole tree, tests included, is checked here once.
npx tsc --noEmit
npx vitest run
npx playwright test
