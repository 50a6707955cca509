#!/bin/sh
# The container image's entrypoint (Dockerfile): one image, one process per container.
#   api            the registry API (migrates at start; loads the demo data into an empty database)
#   worker         the publishing pipeline's jobs, for API processes started with WORKER=off
#   web            the website (next start on WEB_PORT, default 3000)
#   migrate        apply the database migrations and exit
#   registry ARGS  an operator command of server/cli.ts (make-admin EMAIL, credit ..., seed)
#   healthcheck    the image's HEALTHCHECK: checks whichever of the above this container runs
# Each command `exec`s its process so that it receives SIGTERM itself and stops gracefully
# (docs/DEPLOY.md, "Graceful shutdown"). Also runs from a checkout: it works in its parent folder.
set -eu
cd "$(dirname "$0")/.."

command="${1:-}"
[ "$#" -gt 0 ] && shift
case "$command" in
  api)
    exec node --import tsx server/main.ts "$@"
    ;;
  worker)
    exec node --import tsx server/cli.ts worker "$@"
    ;;
  migrate)
    exec node --import tsx server/cli.ts migrate "$@"
    ;;
  registry)
    exec node --import tsx server/cli.ts "$@"
    ;;
  web)
    exec node node_modules/next/dist/bin/next start -p "${WEB_PORT:-3000}" "$@"
    ;;
  healthcheck)
    # Run beside the container's process: which one it is shows in the processes' command lines.
    processes=$(cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' ')
    case "$processes" in
      *server/main.ts*) url="http://127.0.0.1:${API_PORT:-${PORT:-8080}}/health" ;;
      *next/dist/bin/next*) url="http://127.0.0.1:${WEB_PORT:-3000}/favicon.svg" ;;
      *server/cli.ts\ worker*)
        # Its metrics listener (loopback needs no METRICS_TOKEN); `off`: nothing to ask.
        [ "${WORKER_METRICS_PORT:-9464}" = off ] && exit 0
        url="http://127.0.0.1:${WORKER_METRICS_PORT:-9464}/metrics"
        ;;
      *) exit 0 ;; # one-shot commands
    esac
    exec node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"
    ;;
  *)
    echo "Usage: entrypoint.sh api | worker | web | migrate | registry COMMAND [ARGS] | healthcheck" >&2
    exit 2
    ;;
esac
