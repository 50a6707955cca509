import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import prettier from 'eslint-config-prettier'

const config = [
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // CommonJS config files read by Next and Jest.
    files: ['*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.data/**',
      '.test-data/**',
      'src/api/generated/**',
      'server/http/contract-types.ts',
      'server/http/.contract-types-check.ts',
      'src/api/.generated-check/**',
      'server/db/migrations/**',
      'next-env.d.ts',
      'playwright-report/**',
      'test-results/**',
    ],
  },
]
export default config
