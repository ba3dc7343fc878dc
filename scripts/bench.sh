#!/usr/bin/env bash
# `npm run bench`: every benchmark in bench/ (*.mjs with node, *.ts with tsx), one after the other, printing only their
# `name: value unit` lines. A failing bench prints one FAILED line pointing at its log, and the others still run.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=tmp/bench-logs
mkdir -p "$logs"
# A figure line: `name: value unit`; names may hold route paths (`firstload.js./blog/[slug]`). (In a bracket
# expression `]` must come first to be literal.)
figure='^[][A-Za-z0-9_./-]+: [^ ]+ [^ ]+$'

# One build for every bench that serves the app (first-load, static-page, api-http, lighthouse…): made here when stale
# (or reused from `npm test`), then taken as it is.
node scripts/ensure-build.cjs >"$logs/build.log" 2>&1 || { echo "FAILED build: see $logs/build.log"; exit 1; }
export ARB_REUSE_BUILD=1

benches=(bench/first-load.mjs)
for f in bench/*.mjs bench/*.ts; do
  [ -e "$f" ] && [ "$f" != bench/first-load.mjs ] && benches+=("$f")
done

failed=0
for f in "${benches[@]}"; do
  name=$(basename "$f")
  log="$logs/${name%.*}.log"
  case "$f" in
    # The API through the real one-process server (the build first-load made), as `npm start` serves it.
    bench/api-http.ts) cmd=(npx --no-install tsx "$f" --server) ;;
    *.ts) cmd=(npx --no-install tsx "$f") ;;
    *) cmd=(node "$f") ;;
  esac
  # 5 minutes is the outer guard; each bench aims at < 2 minutes (first-load may also build the app once). The inbox
  # bench loads a million reviews into two databases first, Ask ARB's retrieval bench into one (their headers say how
  # long that takes).
  limit=300
  [ "$f" = bench/inbox.ts ] && limit=1200
  [ "$f" = bench/ask-arb-retrieval.ts ] && limit=900
  [ "$f" = bench/store-ratings.ts ] && limit=900
  [ "$f" = bench/overview.ts ] && limit=900
  [ "$f" = bench/inbox-queue.ts ] && limit=900
  # The scale curve grows one PostgreSQL database to 1,000,000 reviews (and to 5,000,000 with SCALE_BENCH_5M=1).
  [ "$f" = bench/scale.ts ] && limit=$([ -n "${SCALE_BENCH_5M:-}" ] && echo 2400 || echo 900)
  timeout "$limit" "${cmd[@]}" >"$log.out" 2>"$log"
  status=$?
  grep -E "$figure" "$log.out"
  if [ $status -ne 0 ]; then
    echo "FAILED $f (exit $status): see $log"
    cat "$log.out" >>"$log"
    failed=1
  fi
  rm -f "$log.out"
done
exit $failed
