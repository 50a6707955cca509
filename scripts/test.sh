#!/usr/bin/env bash
# `npm test`: every check, in the order CI runs them. Exits at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s ==\n' "$1"; }

step 'lint (eslint, prettier)'
npm run --silent lint
step 'typecheck (tsc --noEmit)'
npm run --silent typecheck
step 'generated client matches openapi.yml; migrations match the database schema'
npm run --silent check:generated
npm run --silent check:migrations
step 'unit, component and API tests (jest; API tests on PGlite, and PostgreSQL when TEST_DATABASE_URL is set)'
npm run --silent test:unit
step 'end-to-end (Playwright in Chromium against the started stack)'
npm run --silent test:e2e
