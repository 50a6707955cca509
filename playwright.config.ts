import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium'

// The e2e stack runs on its own ports and data folder, so it never touches a running `npm start`.
// E2E_PORT_OFFSET lets two runs share a machine (each also gets its own data folder).
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0)
export const E2E_PORTS = { web: 3100 + offset, api: 8180 + offset, auth: 9399 + offset * 3 }
/**
 * Loopback fakes of GitHub and of its OIDC issuer, started by the trusted publishing journey; the
 * stack is pointed at them from the start (the JWKS is fetched at the first exchange).
 */
export const E2E_FAKES = { oidcIssuerPort: 8600 + offset, githubPort: 8700 + offset }

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORTS.web}`,
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `rm -rf .test-data/e2e-${offset} && node_modules/.bin/tsx scripts/start.ts`,
    url: `http://127.0.0.1:${E2E_PORTS.web}`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      WEB_PORT: String(E2E_PORTS.web),
      API_PORT: String(E2E_PORTS.api),
      AUTH_EMULATOR_PORT: String(E2E_PORTS.auth),
      DATA_DIR: `.test-data/e2e-${offset}`,
      NEXT_TELEMETRY_DISABLED: '1',
      // The API's line per request would fill the test output; warnings and errors still show.
      LOG_LEVEL: 'warn',
      TRUSTED_PUBLISHING_ISSUER: `http://127.0.0.1:${E2E_FAKES.oidcIssuerPort}`,
      GITHUB_API_URL: `http://127.0.0.1:${E2E_FAKES.githubPort}`,
    },
  },
})
