#!/usr/bin/env bash
# `npm test`: everything the suite needs that `npm install` does not bring, then every gate side by side:
# integration (SQLite and PostgreSQL), the production build then end-to-end in Chromium, unit, and
# typecheck and lint (niced).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's time, printed at the end (and when a stage fails): CI time is a budget, kept under 10 minutes.
STAGES=()
STAGE=""
STAGE_START=$SECONDS
RUN_START=$SECONDS
PARTS=() # a stage's parts run side by side, listed under it
end_stage() {
  [ -n "$STAGE" ] && STAGES+=("$(printf '%5ds  %s' $((SECONDS - STAGE_START)) "$STAGE")") && STAGES+=("${PARTS[@]}")
  STAGE=""
  PARTS=()
}
step() {
  end_stage
  STAGE="$*"
  STAGE_START=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}
print_times() {
  local status=${1:-$?}
  end_stage
  printf '\n\033[1m== time per stage\033[0m\n'
  printf '%s\n' "${STAGES[@]}"
  printf '%5ds  total%s\n' $((SECONDS - RUN_START)) "$([ $status -ne 0 ] && echo ' (failed)')"
}
trap print_times EXIT

step "prerequisites"
[ -d node_modules ] || npm install --no-audit --no-fund
[ -f server/generated/sqlite/client.ts ] && [ -f server/generated/postgresql/client.ts ] || node scripts/prisma-generate.mjs
# The next `npm ci` on this machine unpacks better-sqlite3's native build instead of compiling it again.
node scripts/cache-native-build.mjs || echo "warning: could not cache better-sqlite3's native build" >&2
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the end-to-end tests"
  if [ "$(id -u)" -ne 0 ]; then echo "chromium is missing and installing it needs root: apt-get install chromium fonts-liberation" >&2; exit 1; fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
# A color emoji font, so that reactions show in the screenshots rather than as empty boxes (nothing fails without it).
if [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing Debian's fonts-noto-color-emoji for the screenshots"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji >/dev/null) || echo "warning: could not install fonts-noto-color-emoji" >&2
  else
    echo "warning: no color emoji font (apt-get install fonts-noto-color-emoji): reactions show as boxes in screenshots" >&2
  fi
fi
PYTHON_PACKAGES="python3-socketio python3-websocket python3-requests python3-aiohttp python3-venv"
if ! /usr/bin/python3 -c "import socketio, websocket, requests, aiohttp, venv, ensurepip" 2>/dev/null; then
  echo "Installing Debian's python3-socketio and aiohttp for the Python package and the protocol doc's Python example"
  if [ "$(id -u)" -ne 0 ]; then echo "python3-socketio is missing and installing it needs root: apt-get install $PYTHON_PACKAGES" >&2; exit 1; fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $PYTHON_PACKAGES >/dev/null
fi
# The MCP hosts' own CLIs (Codex, Claude Code), from the npm registry, for the test that has them read
# what `switchboard connect` wrote: ~640 MB, so kept in a cache outside the repository, once per machine.
HOST_CLIS="${SWITCHBOARD_HOST_CLIS:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/host-clis}"
if [ ! -x "$HOST_CLIS/node_modules/.bin/codex" ] || [ ! -x "$HOST_CLIS/node_modules/.bin/claude" ]; then
  echo "Installing the Codex and Claude Code CLIs into $HOST_CLIS (once per machine)"
  mkdir -p "$HOST_CLIS"
  npm install --prefix "$HOST_CLIS" --no-audit --no-fund --no-save @openai/codex@0.169 @anthropic-ai/claude-code@2.1 >/dev/null 2>&1 \
    || echo "warning: could not install the hosts' CLIs; their test is skipped" >&2
fi
export SWITCHBOARD_HOST_CLIS="$HOST_CLIS"
echo "PostgreSQL for the integration suite: ${TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}"

# The machine has two cores, and most parts use one, or wait (a browser's turn, a server's answer): parts
# that do not need each other run side by side, each one's output printed whole when it ends, with its
# own time listed under the stage's.
side_by_side() {
  local dir names=() pids=() failed=0 status took
  dir=$(mktemp -d)
  echo "Running side by side; each one's output follows when it ends."
  while [ $# -gt 0 ]; do
    names+=("$1")
    # Each part writes its exit status and its own time when it ends.
    (
      start=$SECONDS
      code=0
      bash -c "$2" >"$dir/${#names[@]}.log" 2>&1 || code=$?
      echo "$code $((SECONDS - start))" >"$dir/${#names[@]}.end"
    ) &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || true
    read -r status took <"$dir/$((i + 1)).end" || { status=1 took=0; }
    printf '\n\033[1m-- %s (%ds)%s\033[0m\n' "${names[$i]}" "$took" "$([ "$status" -ne 0 ] && echo ': FAILED')"
    cat "$dir/$((i + 1)).log"
    PARTS+=("$(printf '%5ds    %s' "$took" "${names[$i]}")")
    [ "$status" -eq 0 ] || failed=1
  done
  # A failure again at the end, where a reader of the run's last lines (CI's summary) sees it.
  for i in "${!pids[@]}"; do
    read -r status took <"$dir/$((i + 1)).end" || status=1
    [ "$status" -eq 0 ] && continue
    printf '\n\033[1m== what failed in %s\033[0m\n' "${names[$i]}"
    grep -E 'FAIL|Error|[Ee]xpected|✘|×|✗|failed|Timed out|timed out' "$dir/$((i + 1)).log" | grep -v '✓' | tail -n 60 || true
  done
  rm -rf "$dir"
  return $failed
}

# What the tools are documented to reuse safely between runs, kept on this machine as npm keeps its cache:
# TypeScript's incremental state (it checks again whatever changed and what depends on it), Prettier's
# cache (by each file's content), Next.js's build cache (which Next.js asks CI to keep) and Vitest's
# results (each file's last duration: it starts the longest files first, so that the two workers end
# together, where a clean clone would start the largest). A clean clone starts from them;
# SWITCHBOARD_NO_CACHE=1 runs without them.
CACHE="${SWITCHBOARD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/build}"
CACHED=(tsconfig.tsbuildinfo node_modules/.cache/prettier .next/cache node_modules/.vite/vitest)
if [ "${SWITCHBOARD_NO_CACHE:-}" != "1" ]; then
  for item in "${CACHED[@]}"; do
    if [ -e "$CACHE/$item" ] && [ ! -e "$item" ]; then mkdir -p "$(dirname "$item")" && cp -a "$CACHE/$item" "$item"; fi
  done
fi
# Kept when the run ends, passed or failed: each tool's cache holds only what it can use again.
save_caches() {
  [ "${SWITCHBOARD_NO_CACHE:-}" = "1" ] && return 0
  for item in "${CACHED[@]}"; do
    [ -e "$item" ] || continue
    mkdir -p "$(dirname "$CACHE/$item")" && rm -rf "$CACHE/$item.$$" && cp -a "$item" "$CACHE/$item.$$" && rm -rf "$CACHE/$item" && mv "$CACHE/$item.$$" "$CACHE/$item"
  done
}
trap 'code=$?; save_caches || true; print_times "$code"; exit "$code"' EXIT

# Every part at once: the machine's two cores are the budget, and a stage that waits for its slowest
# part leaves one idle. The tests (the integration tests take the most CPU, and are the longest part)
# run at normal priority, since their waits have timeouts; the build, typecheck and lint, which have
# none, run niced, in the time the tests leave (the end-to-end tests wait for the build, and still end
# before the integration tests).
# The end-to-end servers (two, side by side: playwright.config.ts) listen on ports free now, so that two
# runs on one machine (a CI run beside a session's own) never share a server, a data directory or stored
# sign-ins.
free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
if [ -z "${E2E_PORT:-}" ]; then E2E_PORT=$(free_port) && export E2E_PORT; fi
if [ -z "${E2E_PORT_2:-}" ]; then
  E2E_PORT_2=$(free_port)
  while [ "$E2E_PORT_2" = "$E2E_PORT" ]; do E2E_PORT_2=$(free_port); done
  export E2E_PORT_2
fi

step "every part, side by side (typecheck and lint niced)"
side_by_side \
  "integration tests" "npx vitest run --project integration" \
  "production build, then end-to-end tests" "nice -n 10 npm run -s build && echo \"build: \$SECONDS s\" && npx playwright test" \
  "typecheck" "nice -n 10 npm run -s typecheck" \
  "lint (ESLint, Prettier, layers)" "nice -n 10 npm run -s lint" \
  "unit tests" "npx vitest run --project unit"
