#!/usr/bin/env bash
# Runs the whole product locally: the API on embedded SQLite (data/app.db) with mail going to
# a local mailbox, payments to the local PayTabs stand-in and bookings to the local Calendly
# stand-in, and the site on http://127.0.0.1:8000 forwarding /api/* to it, with a demo
# admin and a demo client. Ctrl+C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
SITE_PORT=${SITE_PORT:-8000}
API_PORT=${API_PORT:-8080}

cargo build --release --locked -q -p generator -p api
export DATABASE_URL=${DATABASE_URL:-sqlite://data/app.db}
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-http://127.0.0.1:$SITE_PORT}
export COOKIE_SECURE=${COOKIE_SECURE:-false} # plain http on localhost
# The local PayTabs stand-in (a hosted page with Approve / Decline / Cancel, signed callbacks).
export PAYTABS_STANDIN=${PAYTABS_STANDIN:-true}
export PAYTABS_PROFILE_ID=${PAYTABS_PROFILE_ID:-4242}
export PAYTABS_SERVER_KEY=${PAYTABS_SERVER_KEY:-SDEVLOCAL1-STANDINKEY-NOTASECRET}
export PAYTABS_BASE_URL=${PAYTABS_BASE_URL:-http://127.0.0.1:$API_PORT/paytabs-standin}
# The local Calendly stand-in (a slot picker that sends signed webhooks, cancel/reschedule links).
export CALENDLY_STANDIN=${CALENDLY_STANDIN:-true}
export CALENDLY_SIGNING_KEYS=${CALENDLY_SIGNING_KEYS:-dev-calendly-signing-key}
export CALENDLY_TOKEN=${CALENDLY_TOKEN:-dev-calendly-token}
export CALENDLY_API_BASE=${CALENDLY_API_BASE:-http://127.0.0.1:$API_PORT/calendly-standin/api}
export CALENDLY_SCHEDULING_URL=${CALENDLY_SCHEDULING_URL:-http://127.0.0.1:$API_PORT/calendly-standin/book}

./target/release/api migrate >/dev/null
ADMIN_EMAIL=admin@coach.example.com ADMIN_PASSWORD=demo-admin-2026
CLIENT_EMAIL=client@coach.example.com CLIENT_PASSWORD=demo-client-2026
echo "$ADMIN_PASSWORD" | ./target/release/api admin create --email "$ADMIN_EMAIL" --name "Nadine Kamel" >/dev/null 2>&1 || true

./target/release/api serve --port "$API_PORT" &
API_PID=$!
trap 'kill $API_PID 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$API_PORT/api/health" >/dev/null && break; sleep 0.1; done
curl -s -o /dev/null -X POST "http://127.0.0.1:$API_PORT/api/auth/sign-up" \
  -H "Origin: http://127.0.0.1:$API_PORT" -H 'Content-Type: application/json' \
  -d "{\"full_name\":\"Mona Adel\",\"email\":\"$CLIENT_EMAIL\",\"password\":\"$CLIENT_PASSWORD\",\"phone\":\"+20 100 123 4567\"}" || true

cat <<TXT

  Site:      http://127.0.0.1:$SITE_PORT
  Mailbox:   http://127.0.0.1:$SITE_PORT/api/dev/mailbox   (mail that would have been sent)
  API docs:  http://127.0.0.1:$SITE_PORT/api/openapi.json
  Admin:     $ADMIN_EMAIL / $ADMIN_PASSWORD
  Client:    $CLIENT_EMAIL / $CLIENT_PASSWORD

TXT
./target/release/site serve --port "$SITE_PORT" --api "127.0.0.1:$API_PORT"
