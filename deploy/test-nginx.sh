#!/usr/bin/env bash
# Serves the built site (public/) with deploy/nginx.conf in a real nginx and checks that it
# behaves as netlify.toml says Netlify does: pretty URLs, the unknown-slug rules with their
# statuses, each language's 404, and the headers. Run after `site build`.
#
#   bash deploy/test-nginx.sh [PUBLIC_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
public=$(realpath "${1:-public}")
[ -f "$public/index.html" ] || { echo "no built site in $public: run site build first" >&2; exit 1; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "the test needs nginx: apt-get install nginx-light" >&2; exit 1; }

python3 deploy/nginx-from-netlify.py --check

work=$(mktemp -d)
pid=
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/logs"
# The generated server, on this test's port and folder; /api/ to a port nobody answers.
sed -e "s#listen 80;#listen 127.0.0.1:$port;#" \
  -e "s#root /usr/share/nginx/html;#root $public;#" \
  -e "s#set \$api_upstream http://api:8080;#set \$api_upstream http://127.0.0.1:9;#" deploy/nginx.conf >"$work/site.conf"
cat >"$work/nginx.conf" <<CONF
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events {}
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  include $work/site.conf;
}
CONF
"$nginx" -t -q -p "$work" -c "$work/nginx.conf"
"$nginx" -p "$work" -c "$work/nginx.conf" &
pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 50); do curl -so /dev/null "$base/" && break; sleep 0.1; done

failures=0
expect() { # path, status, then grep patterns the headers+body must hold
  local path=$1 status=$2 got
  shift 2
  : >"$work/response.body"; curl -s -D "$work/response.headers" -o "$work/response.body" "$base$path" || true
  got=$(head -1 "$work/response.headers" | cut -d' ' -f2)
  if [ "$got" != "$status" ]; then
    echo "FAIL $path: status $got, expected $status" >&2
    failures=$((failures + 1))
    return
  fi
  for pattern in "$@"; do
    if ! grep -qiF -- "$pattern" "$work/response.headers" "$work/response.body"; then
      echo "FAIL $path: no \`$pattern\`" >&2
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok   $path -> $status"
}

asset=$(cd "$public" && ls assets/css/*.css | head -1)
expect / 200 "Content-Security-Policy: default-src 'self'" "X-Content-Type-Options: nosniff" \
  "Strict-Transport-Security: max-age=63072000"
expect /about 200 "<html"
expect /ar/about 200 'dir="rtl"'
expect /services/coaching-session 200 "<html"
expect /services/no-such-service 404 "Service Not Found" "Content-Security-Policy"
expect /ar/services/no-such-service 404 'lang="ar"'
expect /blog/no-such-post 302 "Location: /resources"
expect /resources/no-such-resource 302 "Location: /resources"
expect /ar/blog/no-such-post 302 "Location: /ar/resources"
expect /ar/no-such-page 404 'lang="ar"'
expect /no-such-page 404 "Page not found"
expect "/$asset" 200 "Cache-Control: public, max-age=31536000, immutable"
expect /catalogue.json 200 '"version"'
expect /admin/content 200 "script-src 'self' 'unsafe-eval'" # the editor's own CSP
expect /admin 200 "script-src 'self'; style-src"            # and nowhere else
expect /api/health 502 # proxied to the API (nobody listens in this test)


[ "$failures" = 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "nginx serves the site as netlify.toml says"
