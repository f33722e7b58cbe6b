#!/usr/bin/env bash
# The API's image starts, reports itself healthy and answers /api/health against PostgreSQL:
# the Dockerfile's `prebuilt` stage around an `api` this machine already built (no second
# compile), run in production mode on the host's network against the PostgreSQL on
# 127.0.0.1:5432 (a fresh database) and the built site's /catalogue.json.
#
#   cargo build --release -p api && bash deploy/test-docker.sh
#   API_BINARY=target/debug/api bash deploy/test-docker.sh  the debug build (CI: the API suite's)
#   DOCKER=/usr/bin/docker bash deploy/test-docker.sh      another docker client
#
# It says SKIPPED, with the reason, and exits 0 when it cannot run here: no Docker daemon, no
# Debian base image (debian:bookworm-slim, from a registry or `docker import`: see
# deploy/local-docker.sh, which CI runs), or no built binary.
set -euo pipefail
cd "$(dirname "$0")/.."

skip() { echo "SKIPPED: deploy/test-docker.sh: $*"; exit 0; }
# DOCKER: the docker client to use. By default the first on the PATH that can build with
# BuildKit: one with the buildx plugin, or one older than 23 (BuildKit built in).
if [ -z "${DOCKER:-}" ]; then
  for candidate in $(which -a docker 2>/dev/null | awk '!seen[$0]++'); do
    # `docker version` exits 1 without a daemon even as it prints the client version.
    major=$("$candidate" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1 || true)
    if "$candidate" buildx version >/dev/null 2>&1 || [ "${major:-99}" -lt 23 ] 2>/dev/null; then
      DOCKER=$candidate
      break
    fi
  done
  [ -n "${DOCKER:-}" ] || {
    command -v docker >/dev/null || skip "this machine has no docker command"
    skip "no docker client here can build with BuildKit (install the buildx plugin)"
  }
fi
docker() { command "$DOCKER" "$@"; }
why=$(docker info 2>&1 >/dev/null) || skip "no running Docker daemon ($(echo "$why" | grep -m1 . ))"
docker image inspect debian:bookworm-slim >/dev/null 2>&1 ||
  docker pull -q debian:bookworm-slim >/dev/null 2>&1 ||
  skip "no debian:bookworm-slim image and no registry to pull it from"
binary=${API_BINARY:-target/release/api}
[ -x "$binary" ] || skip "no $binary (cargo build --release -p api first)"
[ -f public/catalogue.json ] || { echo "build the site first: the API loads its /catalogue.json" >&2; exit 1; }

run=coaching-test-$$
database=$run
pg=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
site_pid=
context=$(mktemp -d)
cleanup() {
  rm -rf "$context"
  docker rm -f "$run" >/dev/null 2>&1 || true
  docker image rm "$run" >/dev/null 2>&1 || true
  [ -z "$site_pid" ] || kill "$site_pid" 2>/dev/null || true
  psql -q "$pg" -c "DROP DATABASE IF EXISTS \"$database\"" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# BuildKit builds only the stages `prebuilt` needs (not the Rust toolchain's). The build
# context is the binary alone (a copy: target/ may be a link, which a context does not follow).
cp "$binary" "$context/api"
DOCKER_BUILDKIT=1 docker build --quiet --target prebuilt --build-arg API_BINARY=api \
  -f deploy/Dockerfile -t "$run" "$context" >/dev/null
psql -q "$pg" -c "CREATE DATABASE \"$database\"" >/dev/null

site_port=$((20000 + RANDOM % 10000))
api_port=$((30000 + RANDOM % 10000))
python3 -m http.server "$site_port" --bind 127.0.0.1 --directory public >/dev/null 2>&1 &
site_pid=$!

docker run -d --name "$run" --network host --health-interval=2s --health-start-period=60s \
  -e PORT="$api_port" -e HOST=127.0.0.1 \
  -e DATABASE_URL="postgres://postgres@127.0.0.1:5432/$database" \
  -e CATALOGUE_URL="http://localhost:$site_port/catalogue.json" \
  -e PUBLIC_BASE_URL=http://localhost:8080 \
  -e APP_SECRET=0123456789abcdef0123456789abcdef0123 \
  -e SMTP_HOST=127.0.0.1 -e SMTP_PORT=1025 -e SMTP_TLS=none \
  "$run" >/dev/null

status=
for _ in $(seq 120); do
  status=$(docker inspect --format '{{.State.Health.Status}}' "$run" 2>/dev/null || echo gone)
  case $status in healthy | gone | unhealthy) break ;; esac
  [ "$(docker inspect --format '{{.State.Running}}' "$run")" = true ] || { status=exited; break; }
  sleep 1
done
if [ "$status" != healthy ]; then
  echo "FAIL: the API container is $status" >&2
  docker logs "$run" 2>&1 | tail -30 >&2
  exit 1
fi
body=$(curl -fsS "http://127.0.0.1:$api_port/api/health")
echo "$body" | grep -q '"database":"ok"' || { echo "FAIL: /api/health answered $body" >&2; exit 1; }
user=$(docker exec "$run" id -u)
[ "$user" != 0 ] || { echo "FAIL: the API runs as root" >&2; exit 1; }
size=$(docker image inspect --format '{{.Size}}' "$run")
echo "ok: the image ($((size / 1000000)) MB) is healthy, answers /api/health on PostgreSQL ($body), runs as uid $user"
