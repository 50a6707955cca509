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
    ignores: [
      'node_modules/**',
      '.next/**',
      '.data/**',
      '.test-data/**',
      'src/api/generated/**',
      'src/api/.generated-check/**',
      'server/db/migrations/**',
      'next-env.d.ts',
      'playwright-report/**',
      'test-results/**',
    ],
  },
]
export default config
