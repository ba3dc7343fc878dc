#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing and we are root: chromium (e2e, Lighthouse) and
# postgresql (the PostgreSQL suite). Never downloads browsers from anywhere else.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing ${need[*]} from Debian packages…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]}: install with apt-get (need root)." >&2
    exit 1
  fi
fi
