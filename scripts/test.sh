#!/usr/bin/env bash
# `npm test`: everything the suite needs that `npm install` does not bring, then every gate: typecheck,
# lint, unit and the production build side by side, then integration (SQLite and PostgreSQL) beside
# end-to-end in Chromium.
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
  local status=$?
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
if ! /usr/bin/python3 -c "import socketio, websocket, requests" 2>/dev/null; then
  echo "Installing Debian's python3-socketio for the protocol doc's Python example"
  if [ "$(id -u)" -ne 0 ]; then echo "python3-socketio is missing and installing it needs root: apt-get install python3-socketio python3-websocket python3-requests" >&2; exit 1; fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-socketio python3-websocket python3-requests >/dev/null
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
  rm -rf "$dir"
  return $failed
}

step "checks and the production build (side by side)"
side_by_side \
  "typecheck" "npm run -s typecheck" \
  "lint (ESLint, Prettier, layers)" "npm run -s lint" \
  "unit tests" "npx vitest run --project unit" \
  "production build" "npm run -s build"

# The end-to-end tests drive the production build in Chromium on a port of their own; the integration
# tests start their servers on free ports and databases of their own.
step "integration (real server, real clients; SQLite and PostgreSQL) and end-to-end (Playwright, Chromium), side by side"
side_by_side \
  "integration tests" "npx vitest run --project integration" \
  "end-to-end tests" "npx playwright test"
