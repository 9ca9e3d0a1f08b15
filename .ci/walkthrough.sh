#!/usr/bin/env bash
# CI: start the built server on a fresh DATA_DIR as `npm start` does, run the README's walk-through against
# it, stop it, and check that the walk-through left the working tree as it found it.
set -euo pipefail
cd "$(dirname "$0")/.."
# the project's Node.js 24 first, as npm puts it for every npm script (the machine's own may be 20)
export PATH="$PWD/node_modules/.bin:$PATH"
DATA=$(mktemp -d)
LOG=$(mktemp)
PORT=${WALKTHROUGH_PORT:-18080}
DATA_DIR=$DATA PORT=$PORT HOST=127.0.0.1 METRICS_PORT=0 node dist/src/start/server.js > "$LOG" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA" "$LOG"' EXIT
for _ in $(seq 1 100); do
  grep -q 'ota_' "$LOG" && break
  sleep 0.1
done
TOKEN=$(grep -o 'ota_[A-Za-z0-9_-]*' "$LOG" | head -1)
[ -n "$TOKEN" ] || { echo "the server printed no demo token:"; cat "$LOG"; exit 1; }
BEFORE=$(git status --porcelain)
BASE_URL=http://127.0.0.1:$PORT TOKEN=$TOKEN DATA_DIR=$DATA bash scripts/walkthrough.sh
AFTER=$(git status --porcelain)
if [ "$BEFORE" != "$AFTER" ]; then
  echo "the walk-through changed the working tree:"
  diff <(echo "$BEFORE") <(echo "$AFTER") || true
  exit 1
fi
echo "walk-through: passed, working tree unchanged"
