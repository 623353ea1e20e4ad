#!/usr/bin/env bash
# API fuzzing: schemathesis (from PyPI) against a live release server's /api/openapi.json, with
# a logged-in account. Fails on any server error (5xx), any status code, content type or body the
# document does not describe. Not checked: that every schema-valid body is accepted (the schema
# cannot say that a 5x5 board is refused under some rules). Logout and one's sessions (logging out
# everywhere) are left out, as they would end the fuzzing session. Usage: .ci/api-fuzz.sh [EXAMPLES]
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-50}
venv=target/schemathesis-venv
test -x "$venv/bin/schemathesis" || { python3 -m venv "$venv" && "$venv/bin/pip" install -q schemathesis; }
db=$(mktemp -d)/fuzz.db
target/release/tengen serve --addr 127.0.0.1:0 --db "$db" --accounts-per-address 0 > "$db.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q "serving on" "$db.log" && break; sleep 0.2; done
url=$(grep -o 'http://[0-9.:]*' "$db.log" | head -1)
token=$(curl -s -X POST "$url/api/accounts/register" -H 'content-type: application/json' \
  -d '{"username":"fuzzer","password":"heron-violet-42","rank":"3k"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
"$venv/bin/schemathesis" run "$url/api/openapi.json" -H "Authorization: Bearer $token" \
  --max-examples "$examples" --seed 1 \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --exclude-path /api/accounts/logout --exclude-path /api/me/sessions
if grep -q "panicked" "$db.log"; then echo "the server panicked"; exit 1; fi
