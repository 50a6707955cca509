// Two projects: the web (pages, components, client libs) in jsdom, and the API server in node
// against a real database. Both use Next's SWC transform.
const nextJest = require('next/jest')

const createJestConfig = nextJest({ dir: './' })
const moduleNameMapper = { '^@/(.*)$': '<rootDir>/$1' }

/**
 * The server project also runs a few dependencies through Next's SWC transform:
 * - PGlite's CommonJS build (`.cjs`) loads Node built-ins with dynamic `import()`, which Jest's VM
 *   cannot run without --experimental-vm-modules; SWC turns those imports into `require`.
 * - light-my-request (fastify's `app.inject`) requires `cookie`, which is ESM-only; so is `jose`
 *   (trusted publishing verifies OIDC tokens with it).
 */
const SERVER_TRANSPILED = ['@electric-sql/pglite', 'light-my-request', 'cookie', 'jose']

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

/**
 * The web project transforms the ESM-only packages behind the markdown renderer (react-markdown,
 * remark-gfm, rehype-sanitize and the unified ecosystem they pull in), found by walking their
 * dependencies for `"type": "module"`, so the list follows package updates.
 */
const WEB_ESM_ROOTS = ['react-markdown', 'remark-gfm', 'rehype-sanitize']

function esmDependencies(roots) {
  const fs = require('node:fs')
  const path = require('node:path')
  const seen = new Set()
  const esm = new Set()
  // Node's resolution: the requiring package's own node_modules first, then the top level.
  const visit = (name, from) => {
    const dir = [
      path.join(from, 'node_modules', name),
      path.join(__dirname, 'node_modules', name),
    ].find((candidate) => fs.existsSync(path.join(candidate, 'package.json')))
    if (!dir || seen.has(dir)) return
    seen.add(dir)
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    if (manifest.type === 'module') esm.add(name)
    Object.keys(manifest.dependencies ?? {}).forEach((dependency) => visit(dependency, dir))
  }
  roots.forEach((root) => visit(root, __dirname))
  return [...esm]
}

function transformWebDependencies(config) {
  const escaped = esmDependencies(WEB_ESM_ROOTS).map((name) =>
    name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  )
  return {
    ...config,
    transformIgnorePatterns: config.transformIgnorePatterns.map((pattern) =>
      pattern.startsWith('/node_modules/(?!.pnpm)(?!(')
        ? pattern.replace('(?!(', `(?!(${escaped.join('|')}|`)
        : pattern,
    ),
  }
}

module.exports = async () => ({
  globalSetup: '<rootDir>/server/test/global-setup.mjs',
  // Two suites at a time (jest's default on CI's 2 cores is one): the API suites mostly wait on
  // their databases, so the server project takes 500 s instead of 790 s; suites share no ports
  // or Redis keys. About 3 GB of memory per worker.
  maxWorkers: 2,
  projects: [
    transformWebDependencies(
      await createJestConfig({
        displayName: 'web',
        testEnvironment: 'jsdom',
        setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
        moduleNameMapper,
        testMatch: ['<rootDir>/__tests__/**/*.test.{ts,tsx}'],
      })(),
    ),
    transformServerDependencies(
      await createJestConfig({
        displayName: 'server',
        testEnvironment: 'node',
        moduleNameMapper,
        // With the website's page cache handler (cache-handler.js), which talks to Redis.
        testMatch: [
          '<rootDir>/server/**/*.test.ts',
          '<rootDir>/scripts/**/*.test.ts',
          '<rootDir>/cache-handler.test.ts',
        ],
      })(),
    ),
  ],
})
