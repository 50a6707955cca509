// Two projects: the web (pages, components, client libs) in jsdom, and the API server in node
// against a real database. Both use Next's SWC transform.
const nextJest = require('next/jest')

const createJestConfig = nextJest({ dir: './' })
const moduleNameMapper = { '^@/(.*)$': '<rootDir>/$1' }

/**
 * The server project also runs a few dependencies through Next's SWC transform:
 * - PGlite's CommonJS build (`.cjs`) loads Node built-ins with dynamic `import()`, which Jest's VM
 *   cannot run without --experimental-vm-modules; SWC turns those imports into `require`.
 * - light-my-request (fastify's `app.inject`) requires `cookie`, which is ESM-only.
 */
const SERVER_TRANSPILED = ['@electric-sql/pglite', 'light-my-request', 'cookie']

function transformServerDependencies(config) {
  const [[, nextTransform]] = Object.entries(config.transform)
  return {
    ...config,
    transform: { ...config.transform, '^.+\\.cjs$': nextTransform },
    transformIgnorePatterns: config.transformIgnorePatterns.map((pattern) =>
      pattern.startsWith('/node_modules/(?!.pnpm)(?!(')
        ? pattern.replace('(?!(', `(?!(${SERVER_TRANSPILED.join('|')}|`)
        : pattern,
    ),
  }
}

module.exports = async () => ({
  projects: [
    await createJestConfig({
      displayName: 'web',
      testEnvironment: 'jsdom',
      setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
      moduleNameMapper,
      testMatch: ['<rootDir>/__tests__/**/*.test.{ts,tsx}'],
    })(),
    transformServerDependencies(
      await createJestConfig({
        displayName: 'server',
        testEnvironment: 'node',
        moduleNameMapper,
        testMatch: ['<rootDir>/server/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts'],
      })(),
    ),
  ],
})
