#!/usr/bin/env bash
# `npm test`: the whole suite — type-check, lint, unit, component, API and worker (on PGlite and on a PostgreSQL it starts
# itself), the production build, then end-to-end in Debian Chromium against that build. Installs what npm does not
# (chromium, postgresql) when root.
# Every stage runs even when an earlier one failed, so one run shows every failure; the exit status says whether all
# passed. At the end it prints each stage's wall time and the total, so a slower suite shows where it got slower.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh || exit 1

failed=()
times=()
started=$SECONDS
stage() {
  local name=$1
  shift
  echo "── $name: $*"
  local t0=$SECONDS
  "$@" || failed+=("$name")
  times+=("$(printf '%-10s %4d s' "$name" $((SECONDS - t0)))")
}

# The build skips type-checking (next.config.js); the whole tree, tests included, is checked here once, then linted
# (eslint.config.mjs: Next's rules, hooks, typescript-eslint with type information; no warning allowed).
stage typecheck npx tsc --noEmit
stage lint npx eslint . --max-warnings 0
stage vitest npx vitest run
# Builds when the build is missing or older than the sources (scripts/ensure-build.cjs), once: the e2e stage (and its
# second server for static-pages.spec.ts) takes this build as it is.
stage build node scripts/ensure-build.cjs
if [[ " ${failed[*]} " == *" build "* ]]; then
  echo "── e2e: skipped (no build)"
  failed+=(e2e)
else
  ARB_REUSE_BUILD=1 stage e2e npx playwright test
fi

echo "── stage times (wall clock; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '   %s\n' "${times[@]}"
printf '   %-10s %4d s\n' total $((SECONDS - started))
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED — ${failed[*]}"
  exit 1
fi
echo "npm test: all stages passed"
