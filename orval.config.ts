import { defineConfig } from 'orval'

// Generates the typed API client (React Query hooks + fetchers) from the contract.
// Run: npm run generate (the result is committed; `npm test` fails when it is stale).
const output = process.env.ORVAL_OUTPUT_DIR ?? './src/api/generated'

export default defineConfig({
  registry: {
    input: './openapi.yml',
    output: {
      mode: 'tags-split',
      target: output,
      schemas: `${output}/model`,
      client: 'react-query',
      httpClient: 'axios',
      clean: true,
      override: {
        mutator: {
          path: './src/api/mutator.ts',
          name: 'customInstance',
        },
        query: {
          useQuery: true,
          useInfinite: false,
          signal: true,
        },
      },
    },
  },
  // The contract's field rules (lengths, patterns) as constants and zod schemas, which the
  // owners' forms use instead of copies of their own.
  rules: {
    input: './openapi.yml',
    output: {
      mode: 'single',
      target: `${output}/rules.zod.ts`,
      client: 'zod',
    },
  },
})
