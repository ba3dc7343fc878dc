#!/usr/bin/env bash
# `npm test`: the whole suite — type-check, lint, unit, component, API and worker (on PGlite and on a PostgreSQL it starts
# itself), the production build, then end-to-end in Debian Chromium against that build. Installs what npm does not
# (chromium, postgresql) when root.
# Every stage runs even when an earlier one failed, so one run shows every failure; the exit status says whether all
# passed. At the end it prints each stage's wall time and CPU time (user + system of everything the stage ran) and the
# totals, so a slower suite shows where it got slower: on a machine shared with other work the wall time says how long
# it took, the CPU time what it cost (close to what it would take on a quiet machine, times the cores it keeps busy).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh || exit 1

failed=()
times=()
started=$SECONDS
# Sets `cpu` to the CPU seconds used so far by this script's finished children: the second line of the `times` builtin
# (user, system). `times` must run in this shell, not in a pipe or $(…) (a subshell counts only its own children).
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
cpu=0
children_cpu() {
  times >"$cpu_file"
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /m|s/); t += p[1] * 60 + p[2] }; printf "%d", t }' "$cpu_file")
}
stage() {
  local name=$1
  shift
  echo "── $name: $*"
  local t0=$SECONDS c0
  children_cpu
  c0=$cpu
  "$@" || failed+=("$name")
  children_cpu
  times+=("$(printf '%-10s %4d s wall %5d s CPU' "$name" $((SECONDS - t0)) $((cpu - c0)))")
}

# Runs each `name command…` given (one string per stage, split on spaces) side by side, each in a subshell whose own
# `times` counts only what it ran, so every stage still gets its own CPU line; their output is shown one stage after
# the other once all are done, not interleaved.
stages_side_by_side() {
  local dir name spec pids=() names=()
  dir=$(mktemp -d)
  for spec in "$@"; do
    read -r name _ <<<"$spec"
    echo "── $name: ${spec#"$name" } (side by side with the others of: ${*%% *})"
    (
      cpu_file="$dir/$name.cpu"
      t0=$SECONDS
      # shellcheck disable=SC2086 # the command is words on purpose
      ${spec#"$name" } >"$dir/$name.log" 2>&1
      rc=$?
      children_cpu
      printf '%-10s %4d s wall %5d s CPU' "$name" $((SECONDS - t0)) "$cpu" >"$dir/$name.time"
      exit $rc
    ) &
    pids+=($!)
    names+=("$name")
  done
  local i failed_here=()
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed_here+=("${names[$i]}")
  done
  failed+=("${failed_here[@]}")
  # Passing stages' output first, failing ones' last: a log read from its end (CI keeps the tail) shows the failure.
  for name in "${names[@]}"; do
    [[ " ${failed_here[*]} " == *" $name "* ]] && continue
    echo "── $name output (passed):"
    cat "$dir/$name.log"
  done
  for name in "${failed_here[@]}"; do
    echo "── $name output (FAILED):"
    cat "$dir/$name.log"
  done
  for name in "${names[@]}"; do times+=("$(cat "$dir/$name.time")"); done
  rm -rf "$dir"
}

# The build first (scripts/ensure-build.cjs: when missing or older than the sources; ~10 s with Turbopack), then
# type-check and lint side by side (eslint.config.mjs: Next's rules, hooks, typescript-eslint with type information; no
# warning allowed; the build skips type-checking, next.config.js, so the whole tree, tests included, is checked here
# once), then end-to-end in Chromium against that build, then vitest. E2E and vitest each run alone: both start
# servers (e2e specs with settings of their own start a second one, whose fresh embedded database takes ~12 s of
# initdb on a quiet machine) and wait on timed polls and retries, and beside the other stages on 2 cores their
# timeouts fired.
stage build node scripts/ensure-build.cjs
# The n8n node (integrations/n8n) has its own dependencies, n8n-core and n8n-workflow (~330 MB; ~25 s from the
# registry, ~20 s from npm's cache on 2 cores; nothing when installed and its lockfile unchanged): the type-check reads
# their types and tests/api/n8nNode.test.ts runs the node in n8n's engine. --ignore-scripts: n8n-core's optional native
# modules are not built (the engine runs without them).
n8n_deps() {
  local dir=integrations/n8n
  if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ] &&
    [ ! "$dir/package.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    return 0
  fi
  npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund && touch "$dir/node_modules/.package-lock.json"
}
stage n8n-deps n8n_deps
stages_side_by_side 'typecheck npx tsc --noEmit' 'lint npx eslint . --max-warnings 0'
if [[ " ${failed[*]} " == *" build "* ]]; then
  echo "── e2e: skipped (no build)"
  failed+=(e2e)
else
  ARB_REUSE_BUILD=1 stage e2e npx playwright test
fi
stage vitest npx vitest run

echo "── stage times (load average now: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores)"
printf '   %s\n' "${times[@]}"
children_cpu
printf '   %-10s %4d s wall %5d s CPU\n' total $((SECONDS - started)) "$cpu"
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED — ${failed[*]}"
  exit 1
fi
echo "npm test: all stages passed"
