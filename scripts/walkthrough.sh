#!/usr/bin/env bash
# The README's walk-through, runnable against a running server:
#
#   BASE_URL=http://127.0.0.1:8080 TOKEN=ota_... bash scripts/walkthrough.sh
#
# Optional: DATA_DIR=<the server's DATA_DIR> also runs the operator's step (importing partner settlements
# with the admin CLI). Every answer is checked; an unexpected one prints the server's message and request id
# and exits 1. Files are written only under a temporary directory, removed at the end.
set -euo pipefail

B=${BASE_URL:?set BASE_URL, for example http://127.0.0.1:8080}
: "${TOKEN:?set TOKEN to a tenant API token (npm start prints the demo one)}"
HERE=$(cd "$(dirname "$0")/.." && pwd)
PDF=${PDF:-$HERE/test/fixtures/pdfs/real/auto-multiple-choice-doc-pdf__sample-amc.pdf}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# call METHOD PATH EXPECTED_STATUS [curl args...]: the body lands in $WORK/body, and is printed
call() {
  local method=$1 path=$2 expected=$3
  shift 3
  local status
  status=$(curl -sS -o "$WORK/body" -w '%{http_code}' -X "$method" "$B$path" -H "Authorization: Bearer $TOKEN" "$@")
  if [ "$status" != "$expected" ]; then
    echo "$method $path answered $status, expected $expected:" >&2
    node -e '
      const text = require("fs").readFileSync(process.argv[1], "utf8");
      try {
        const b = JSON.parse(text);
        console.error(`  ${b.error}: ${b.message} (request ${b.request_id})`);
        for (const d of b.detail ?? []) console.error(`  ${d.loc.join(".")}: ${d.msg}`);
      } catch { console.error(`  ${text.slice(0, 500)}`); }' "$WORK/body" >&2
    exit 1
  fi
}

# field PATH: one field of the last JSON answer, such as data.upload_id
field() { node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const v = process.argv[2].split(".").reduce((o, k) => o?.[k], b); if (v === undefined) { console.error(`no ${process.argv[2]} in the answer`); process.exit(1); } console.log(typeof v === "object" ? JSON.stringify(v) : v);' "$WORK/body" "$1"; }

show() { node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(JSON.stringify(b.data, null, 2).split("\n").slice(0, Number(process.argv[2] || 40)).join("\n"))' "$WORK/body" "${1:-40}"; }

step "Revenue dashboard"
call GET /api/open/finance/dashboard 200
show 12

step "Upload a PDF: start, send each part, complete"
SIZE=$(wc -c < "$PDF" | tr -d ' ')
SHA=$(node -e 'const c=require("crypto"),f=require("fs");console.log(c.createHash("sha256").update(f.readFileSync(process.argv[1])).digest("hex"))' "$PDF")
call POST /api/open/uploads 201 -H 'Content-Type: application/json' \
  -d "{\"file_name\": \"sample.pdf\", \"size_bytes\": $SIZE, \"sha256\": \"$SHA\"}"
UPLOAD=$(field data.upload_id)
PART_SIZE=$(field data.part_size)
PARTS=$(field data.part_count)
echo "upload $UPLOAD: $PARTS part(s) of up to $PART_SIZE bytes"
for ((n = 1; n <= PARTS; n++)); do
  tail -c +$(((n - 1) * PART_SIZE + 1)) "$PDF" | head -c "$PART_SIZE" > "$WORK/part"
  call PUT "/api/open/uploads/$UPLOAD/parts/$n" 200 -H 'Content-Type: application/pdf' --data-binary @"$WORK/part"
  echo "part $n: $(field data.size_bytes) bytes, sha256 $(field data.sha256)"
done
call POST /api/open/uploads/complete 200 -H 'Content-Type: application/json' -d "{\"upload_id\": \"$UPLOAD\"}"
FILE=$(field data.file_id)
echo "file $FILE: $(field data.page_count) pages"
call GET "/api/open/files/$FILE" 200
show 12

step "Diagnose it (runs are asynchronous: poll until the run has finished)"
call POST /api/open/runs 201 -H 'Content-Type: application/json' -d "{\"file_id\": \"$FILE\", \"target\": \"pdf-preflight\"}"
RUN=$(field data.id)
wait_run() {
  for _ in $(seq 1 600); do
    call GET "/api/open/runs/$1" 200
    case $(field data.status) in
      succeeded) return 0 ;;
      failed | cancelled) echo "run $1 ended $(field data.status): $(field data.error)" >&2; exit 1 ;;
    esac
    sleep 0.2
  done
  echo "run $1 did not finish within 2 minutes" >&2
  exit 1
}
wait_run "$RUN"
show 30
call GET "/api/open/runs/$RUN/files/report.json" 200
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(`report.json: ${r.summary.errors} errors, ${r.summary.warnings} warnings, ${r.summary.infos} notes over ${r.pages.length} pages`)' "$WORK/body"
curl -sS -f -o "$WORK/report.html" "$B/api/open/runs/$RUN/files/report.html" -H "Authorization: Bearer $TOKEN"
echo "report.html: $(wc -c < "$WORK/report.html" | tr -d ' ') bytes (open it in a browser)"

step "List runs: filters, keyword, pages"
call GET "/api/open/runs?status=succeeded&target=pdf-preflight&keyword=sample&limit=20&offset=0" 200
echo "total $(field total), page $(field page) of $(field total_pages)"

step "Rerun the same run (attempt 2), and extract its text with pdf-text"
call POST "/api/open/runs/$RUN/rerun" 200
echo "run $RUN queued again, attempt $(field data.attempt)"
wait_run "$RUN"
call POST /api/open/runs 201 -H 'Content-Type: application/json' -d "{\"file_id\": \"$FILE\", \"target\": \"pdf-text\"}"
TEXT_RUN=$(field data.id)
wait_run "$TEXT_RUN"
curl -sS -f -o "$WORK/text.txt" "$B/api/open/runs/$TEXT_RUN/files/text.txt" -H "Authorization: Bearer $TOKEN"
head -c 300 "$WORK/text.txt"
echo

if [ -n "${DATA_DIR:-}" ]; then
  step "Operator: import partner settlements with the admin CLI (twice: the second run skips them)"
  cat > "$WORK/settlements.csv" <<'CSV'
external_id,type,amount,currency,occurred_at,description
PS-2026-11-001,ecosystem,1250.00,USD,2026-11-20T09:00:00Z,Partner marketplace November
PS-2026-11-002,ecosystem,-25.50,USD,2026-11-21T10:30:00Z,Partner refund
CSV
  TENANT=$(cd "$HERE" && DATA_DIR=$DATA_DIR npm run --silent admin -- tenants list --json |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).data[0].tenant_id')
  (cd "$HERE" && DATA_DIR=$DATA_DIR npm run --silent admin -- revenue import "$TENANT" "$WORK/settlements.csv" --json)
  (cd "$HERE" && DATA_DIR=$DATA_DIR npm run --silent admin -- revenue import "$TENANT" "$WORK/settlements.csv" --json)
fi

step "Revenue transactions (each finished run books its points as a tech transaction)"
call GET "/api/open/finance/transactions?transaction_type=all&page=1&page_size=3" 200
show 30

step "A validation error, as FastAPI reports it"
call GET "/api/open/runs?limit=101" 422
node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(JSON.stringify(b.detail))' "$WORK/body"

printf '\n\033[1mWalk-through passed.\033[0m\n'
