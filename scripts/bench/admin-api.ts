// The registry API as `npm run bench:api` measures the admins' calls: the real app, database and
// settings of server/main.ts, but callers prove who they are with BENCH_ADMIN_TOKEN instead of a
// Firebase ID token (there is no Auth emulator in the bench; in production a token check is a
// local signature check with cached keys). Serves on 127.0.0.1 only, and only when started by
// scripts/bench/api.ts, which sets the token to a fresh random value each run.
import os from 'node:os'
import path from 'node:path'
import type { VerifiedIdentity } from '../../server/auth/verifier'
import { loadConfig } from '../../server/config'
import { openDatabase } from '../../server/db/client'
import { buildApp } from '../../server/http/app'
import { LocalArchiveStorage } from '../../server/storage'

export const BENCH_ADMIN: VerifiedIdentity = {
  uid: 'bench-admin',
  email: 'bench-admin@bench.invalid',
  emailVerified: true,
  name: 'Bench Admin',
}

async function main() {
  const token = process.env.BENCH_ADMIN_TOKEN ?? ''
  if (token.length < 32) throw new Error('BENCH_ADMIN_TOKEN (32+ characters) is required.')
  const config = loadConfig({
    ...process.env,
    API_HOST: '127.0.0.1',
    ADMIN_EMAILS: BENCH_ADMIN.email,
  })
  const database = await openDatabase({
    ...(config.databaseUrl
      ? { url: config.databaseUrl }
      : { dataDir: path.join(config.dataDir, 'pglite') }),
    timeouts: config.databaseTimeouts,
  })
  const app = await buildApp({
    db: database.db,
    storage: new LocalArchiveStorage(path.join(os.tmpdir(), 'registry-bench-archives')),
    verifier: {
      async verify(idToken) {
        if (idToken !== token) throw new Error('Not the bench token.')
        return BENCH_ADMIN
      },
    },
    config,
  })
  await app.listen({ host: '127.0.0.1', port: config.port })
  const stop = () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
