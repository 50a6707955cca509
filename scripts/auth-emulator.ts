// The Firebase Auth emulator as a child process (`npm start`, `npm run bench:cluster`): its hub
// and logging ports sit next to the auth port, so several stacks can run side by side.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { DEMO_FIREBASE_PROJECT_ID } from './ports'

const root = path.resolve(__dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

export function startAuthEmulator(port: number, dataDir: string): ChildProcess {
  const authDir = path.join(dataDir, 'auth-emulator')
  const configFile = path.join(dataDir, 'firebase.json')
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      // Hub and logging ports next to the auth port, so several stacks can run side by side.
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  )
  // Accounts survive restarts: imported at start when present, exported when we stop.
  const persistence = fs.existsSync(path.join(authDir, 'firebase-export-metadata.json'))
    ? ['--import', authDir, '--export-on-exit', authDir]
    : ['--export-on-exit', authDir]
  return spawn(
    bin('firebase'),
    [
      'emulators:start',
      '--only',
      'auth',
      '--project',
      DEMO_FIREBASE_PROJECT_ID,
      '--config',
      configFile,
      ...persistence,
    ],
    {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
    },
  )
}
