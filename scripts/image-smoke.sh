#!/usr/bin/env bash
# Smoke test of the built image (docs/DEPLOY.md): `docker build -t comfy-registry:local .` first,
# then `bash scripts/image-smoke.sh [IMAGE]`. Runs the API (PGlite, demo data) and the website on
# a network of their own, checks their health, pages and user, and that the API stops gracefully.
# CONTAINER=podman for podman; CONTAINER_RUN_FLAGS adds flags to every `run` (a sandbox may need
# `--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096`).
set -euo pipefail
image="${1:-comfy-registry:local}"
engine="${CONTAINER:-docker}"
read -r -a run_flags <<<"${CONTAINER_RUN_FLAGS:-}"
suffix="smoke-$$"
network="registry-$suffix"
api="registry-api-$suffix"
web="registry-web-$suffix"
api_port="${SMOKE_API_PORT:-18080}"
web_port="${SMOKE_WEB_PORT:-13000}"

cleanup() {
  "$engine" rm -f "$api" "$web" >/dev/null 2>&1 || true
  "$engine" network rm "$network" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  "$engine" logs "$api" 2>&1 | tail -20 >&2 || true
  "$engine" logs "$web" 2>&1 | tail -20 >&2 || true
  exit 1
}
# Waits until `curl` gets a 2xx from $1 (at most $2 seconds).
wait_for() {
  for _ in $(seq "$2"); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 1
  done
  fail "$1 did not answer within $2 s"
}

"$engine" network create "$network" >/dev/null
"$engine" run -d "${run_flags[@]}" --name "$api" --network "$network" --network-alias api \
  -p "127.0.0.1:$api_port:8080" -e API_PUBLIC_URL="http://localhost:$api_port" \
  -e CORS_ORIGINS="http://localhost:$web_port" "$image" api >/dev/null
wait_for "http://127.0.0.1:$api_port/health" 300
echo "api: /health $(curl -fsS "http://127.0.0.1:$api_port/health")"
nodes=$(curl -fsS "http://127.0.0.1:$api_port/nodes?limit=1")
grep -q '"total":[1-9]' <<<"$nodes" || fail "GET /nodes (no demo nodes): $nodes"
echo "api: demo data loaded (GET /nodes?limit=1 answers with a total)"

"$engine" run -d "${run_flags[@]}" --name "$web" --network "$network" \
  -p "127.0.0.1:$web_port:3000" -e API_URL=http://api:8080 \
  -e NEXT_PUBLIC_API_URL="http://localhost:$api_port" "$image" web >/dev/null
wait_for "http://127.0.0.1:$web_port/favicon.svg" 120
home=$(curl -fsS "http://127.0.0.1:$web_port/")
grep -q 'registry-public-env' <<<"$home" || fail "the home page has no public settings"
echo "web: home page rendered ($(wc -c <<<"$home") bytes)"

for name in "$api" "$web"; do
  "$engine" exec "$name" /app/scripts/entrypoint.sh healthcheck || fail "$name: healthcheck"
  [ "$("$engine" exec "$name" id -u)" = 1000 ] || fail "$name does not run as uid 1000"
done
echo "healthcheck: api and web healthy; both run as uid 1000"

"$engine" stop -t 30 "$api" >/dev/null
code=$("$engine" inspect --format '{{.State.ExitCode}}' "$api")
"$engine" logs "$api" 2>&1 | grep -q 'Registry API stopped.' || fail "no graceful stop in the api's log"
[ "$code" = 0 ] || fail "the api exited $code on SIGTERM"
echo "api: stopped gracefully on SIGTERM (exit 0)"
echo "Smoke test passed."
