#!/usr/bin/env sh
# Sends examples/call.json to POST /v1/calls with curl and prints the answer.
#   CALLSCORE_API_KEY=svc_sk_... sh examples/send-call.sh
# The demo workspace (`npm start` on an empty data folder) prints its API key once; examples/call.json uses
# its rep, rep@demo.test. Sending the same file again answers 200 with "created": false (idempotent).
set -eu

BASE_URL="${CALLSCORE_BASE_URL:-http://localhost:8080/v1}"
: "${CALLSCORE_API_KEY:?set CALLSCORE_API_KEY to your svc_sk_... key}"
HERE="$(cd "$(dirname "$0")" && pwd)"

# --max-time 60: the contract asks clients to wait at least 60 s for POST /v1/calls.
curl --silent --show-error --max-time 60 \
  --write-out '\nHTTP %{http_code}\n' \
  -X POST "$BASE_URL/calls" \
  -H "Authorization: Bearer $CALLSCORE_API_KEY" \
  -H "Content-Type: application/json" \
  --data-binary @"$HERE/call.json"
