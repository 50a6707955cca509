// docs/DEPLOY.md's variable table is the one list of settings: every environment variable the
// product's code reads has a row, every row names a variable something reads, and each row says
// which process reads it (scripts/env-vars.ts finds the reads).
import fs from 'node:fs'
import path from 'node:path'
import { collectEnvReads, DEPLOY_DOC, readEnvTable, ROOT, type Read } from '@/scripts/env-vars'

const doc = fs.readFileSync(path.join(ROOT, DEPLOY_DOC), 'utf8')
const rows = readEnvTable(doc)
const { reads, unknownComputed } = collectEnvReads()
const documented = new Map(rows.flatMap((row) => row.names.map((name) => [name, row] as const)))
const where = (places: Read[]) => places.map((read) => `${read.file}:${read.line}`).join(', ')

describe(`${DEPLOY_DOC} variable table`, () => {
  it('finds the reads and the rows (the scan itself works)', () => {
    // Known reads of each kind: process.env.NAME, env.NAME, env['NAME'] (computed), shell.
    expect(reads.get('DATABASE_URL')?.[0].file).toBe('server/config.ts')
    expect(reads.get('NEXT_PUBLIC_SITE_URL')?.some((r) => r.file === 'src/lib/public-env.ts')).toBe(
      true,
    )
    expect(reads.get('PROXY_TIMEOUT_MS')).toBeDefined()
    expect(reads.get('PROXY_OPENAI_KEY')?.[0].file).toBe('server/proxy/providers.ts')
    expect(reads.get('WEB_PORT')?.some((r) => r.reader === 'image')).toBe(true)
    // Test-only variables are not product settings.
    expect(reads.has('TEST_DATABASE_URL')).toBe(false)
    expect(rows.length).toBeGreaterThan(20)
    expect(documented.get('PROXY_KLING_URL')).toBeDefined()
  })

  it('every variable the code reads has a row', () => {
    const missing = [...reads]
      .filter(([name]) => !documented.has(name))
      .map(([name, places]) => `${name} (read by ${where(places)})`)
    if (missing.length > 0) {
      throw new Error(
        `Add a row to the table in ${DEPLOY_DOC} for:\n  ${missing.join('\n  ')}\n` +
          '(or, for a variable only tests or benchmarks read, keep its file in NOT_PRODUCT of scripts/env-vars.ts)',
      )
    }
  })

  it('every row names variables the code reads', () => {
    const unread = rows.flatMap((row) =>
      row.names
        .filter((name) => !reads.has(name))
        .map((name) => `${name} (${DEPLOY_DOC}:${row.line})`),
    )
    if (unread.length > 0) {
      throw new Error(`Nothing reads these variables; remove their rows:\n  ${unread.join('\n  ')}`)
    }
    expect(rows.every((row) => row.names.length > 0)).toBe(true)
  })

  it("each row's 'read by' names the processes that read it", () => {
    const wrong: string[] = []
    for (const [name, places] of reads) {
      const row = documented.get(name)
      if (!row) continue
      const readers = new Set(places.map((read) => read.reader))
      // `npm start` passes most settings on to the API and website; it is named only for the
      // variables nothing else reads.
      if (readers.size > 1) readers.delete('npm start')
      for (const reader of readers) {
        // The server's files are loaded by both the API and the worker: either will do.
        const accepted = reader === 'api, worker' ? ['api', 'worker'] : [reader]
        if (!accepted.some((process) => row.readBy.includes(process))) {
          wrong.push(
            `${name} (${DEPLOY_DOC}:${row.line}) says '${row.readBy}' but ${reader} reads it: ${where(places.filter((r) => r.reader === reader))}`,
          )
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('reads with a computed name are known (their names are checked too)', () => {
    // env[name] hides which variables are read: add the file to COMPUTED_NAMES in scripts/env-vars.ts.
    expect(unknownComputed.map((read) => `${read.file}:${read.line}`)).toEqual([])
  })
})
