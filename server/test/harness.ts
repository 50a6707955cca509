/**
 * One seeded registry API per test suite: a fresh migrated database (PGlite, or PostgreSQL on
 * TEST_DATABASE_URL), a small deterministic demo data set, in-memory archive storage and the real
 * Firebase token verifier (against the Auth emulator). Requests go through `app.inject`.
 */
import { rm } from 'node:fs/promises'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../http/app'
import { firebaseTokenVerifier } from '../auth/verifier'
import { loadConfig, type ServerConfig } from '../config'
import type { Db } from '../db/client'
import { createTestDatabase, hasTestPostgres } from '../db/test-db'
import { generateDemoData, type DemoData } from '../seed/generate'
import { loadDemoData } from '../seed/load'
import { MemoryArchiveStorage } from '../storage'
import { bearer, TEST_PROJECT_ID, uniqueEmail, type TestUser } from './auth'

export type Backend = 'pglite' | 'postgres'

/** Every suite runs on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = hasTestPostgres() ? ['pglite', 'postgres'] : ['pglite']

/** Small on purpose: the whole server suite must stay fast on PGlite. */
export const TEST_DATA = { nodes: 30, publishers: 6, seed: 3 } as const

export const TEST_PUBLIC_URL = 'http://registry.test'

export interface TestAppOptions {
  postgres?: boolean
  nodes?: number
  publishers?: number
  seed?: number
  /** Extra settings, as environment variables (e.g. GITHUB_API_URL, MAX_ARCHIVE_MB). */
  env?: Record<string, string>
  /** Serve with the database time limits of a real deployment (config's databaseTimeouts). */
  withDatabaseTimeouts?: boolean
}

export interface TestApp {
  app: FastifyInstance
  db: Db
  /** The PostgreSQL database's URL (for a second session), when on PostgreSQL. */
  databaseUrl?: string
  storage: MemoryArchiveStorage
  config: ServerConfig
  /** Listed in ADMIN_EMAILS: sign it up with a verified email to act as an admin. */
  adminEmail: string
  /** The generated demo data that was loaded (for expectations). */
  demo: DemoData
  close(): Promise<void>
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const seedOptions = {
    nodes: options.nodes ?? TEST_DATA.nodes,
    publishers: options.publishers ?? TEST_DATA.publishers,
    seed: options.seed ?? TEST_DATA.seed,
  }
  const adminEmail = uniqueEmail('admin')
  const config = loadConfig({
    ADMIN_EMAILS: adminEmail,
    API_PUBLIC_URL: TEST_PUBLIC_URL,
    FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
    // Suites send many requests from one address; rate-limits.test.ts turns limits on (env).
    RATE_LIMIT_SCALE: '0',
    // Suites change rows behind the API's back; public-reads.test.ts turns the cache on (env).
    PUBLIC_CACHE_MS: '0',
    // …and read download counts right after installing; download-counter.test.ts batches them.
    DOWNLOAD_FLUSH_MS: '0',
    // …and read provider lookups right after making them.
    PROXY_LOG_FLUSH_MS: '0',
    ...options.env,
  })
  const database = await createTestDatabase({
    postgres: options.postgres ?? false,
    timeouts: options.withDatabaseTimeouts ? config.databaseTimeouts : undefined,
  })
  const storage = new MemoryArchiveStorage()
  try {
    await loadDemoData(database.db, storage, seedOptions)
    const app = await buildApp({
      db: database.db,
      storage,
      verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
      config,
    })
    await app.ready()
    return {
      app,
      db: database.db,
      databaseUrl: database.url,
      storage,
      config,
      adminEmail,
      demo: generateDemoData(seedOptions),
      close: async () => {
        await app.close()
        await database.close()
        await rm(storage.stagingDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

export interface JsonReply<T> {
  status: number
  body: T
  response: LightMyRequestResponse
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[]

/** `?a=1&tags=x&tags=y` — arrays become repeated keys, as real clients send them. */
export function query(params: Record<string, QueryValue | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    const values = Array.isArray(value) ? value : [value]
    for (const item of values) search.append(key, String(item))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** Sends a request and parses the JSON answer (the caller states the type it expects). */
export async function request<T = unknown>(
  app: FastifyInstance,
  options: InjectOptions & { url: string },
): Promise<JsonReply<T>> {
  const response = await app.inject(options)
  const type = String(response.headers['content-type'] ?? '')
  const body = (type.includes('json') ? response.json() : response.body) as T
  return { status: response.statusCode, body, response }
}

export function get<T = unknown>(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonReply<T>> {
  return request<T>(app, { method: 'GET', url, headers })
}

export interface SendOptions {
  /** Signed-in caller (a test user or a raw token); omitted = anonymous. */
  as?: TestUser | string
  /** JSON body (sent with Content-Type application/json). */
  body?: unknown
  headers?: Record<string, string>
}

/** A write call: method, url, optional caller and JSON body. */
export function send<T = unknown>(
  app: FastifyInstance,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  options: SendOptions = {},
): Promise<JsonReply<T>> {
  const headers: Record<string, string> = {
    ...(options.as ? bearer(options.as) : {}),
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  }
  return request<T>(app, {
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  })
}

export interface ErrorBody {
  error: string
  message: string
}

/** Asserts the `{error, message}` shape and returns it. */
export function expectErrorBody(reply: JsonReply<unknown>, status: number): ErrorBody {
  expect(reply.status).toBe(status)
  expect(String(reply.response.headers['content-type'])).toContain('application/json')
  const body = reply.body as Partial<ErrorBody>
  expect(typeof body.error).toBe('string')
  expect(typeof body.message).toBe('string')
  expect(body.message).not.toBe('')
  return body as ErrorBody
}
