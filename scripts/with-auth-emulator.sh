#!/usr/bin/env bash
# Runs a command with the Firebase Auth emulator up (port AUTH_TEST_PORT, default 9199, with the
# emulator hub and logging ports next to it, so it can run beside `npm start`). firebase-tools sets FIREBASE_AUTH_EMULATOR_HOST for the command.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${AUTH_TEST_PORT:-9199}"
dir=.test-data/auth-emulator
mkdir -p "$dir"
cat > "$dir/firebase.json" <<JSON
{"emulators":{"auth":{"host":"127.0.0.1","port":$port},"hub":{"host":"127.0.0.1","port":$((port + 1))},
 "logging":{"host":"127.0.0.1","port":$((port + 2))},"ui":{"enabled":false},"singleProjectMode":true}}
JSON
export FIREBASE_CLI_DISABLE_UPDATE_CHECK=true
exec node_modules/.bin/firebase emulators:exec --only auth --project demo-comfy-registry \
  --config "$dir/firebase.json" "$*"
