// Server settings, read once from the environment. Defaults start a complete local registry.
import path from 'node:path'
import { providerConfigFromEnv, type ProxyConfig } from './proxy/providers'
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './db/client'
import { DEFAULT_FLAG_SEVERITY, SEVERITIES, type Severity } from './pipeline/findings'
import type { ReviewMode } from './pipeline/process-version'
import { LOG_FORMATS, LOG_LEVELS, type LogSettings } from './system/logging'
import type { S3StorageConfig } from './storage/s3'
import { DEFAULT_TRUSTED_PUBLISHING_AUDIENCE } from '@/src/lib/constants'

export interface ServerConfig {
  host: string
  port: number
  /** A real PostgreSQL when set; otherwise embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined
  dataDir: string
  /** Public base URL of this API, used to build download and upload links. */
  publicUrl: string
  /** Users whose verified email is listed here are admins. */
  adminEmails: string[]
  firebaseProjectId: string
  /** GitHub REST API base URL (claiming a node checks repository rights there). */
  githubApiUrl: string
  /**
   * Trusted publishing: the OIDC issuer whose tokens are exchanged for publish tokens
   * (TRUSTED_PUBLISHING_ISSUER, GitHub Actions by default) and the audience they must name
   * (TRUSTED_PUBLISHING_AUDIENCE).
   */
  trustedPublishing: { issuer: string; audience: string }
  /** Largest node archive (zip) accepted by the upload call, in bytes. */
  maxArchiveBytes: number
  /** Browser origins allowed to call the API (the website). */
  corsOrigins: string[]
  /** Served by GET /features: the rate the ComfyUI frontend applies to partner-node prices. */
  partnerNodeConversionRate: number
  /** Time limits of the API's database sessions (DB_STATEMENT_TIMEOUT_MS, DB_LOCK_TIMEOUT_MS). */
  databaseTimeouts: DatabaseTimeouts
  /** REVIEW_MODE: `auto` (a clean version becomes Active) or `manual` (it waits for an admin). */
  reviewMode: ReviewMode
  /**
   * SCAN_FLAG_SEVERITY: findings at or above it flag a version. Findings that a version breaks a
   * published standard (not malicious) flag it only when this is set below the default `high`.
   */
  flagSeverity: Severity
  /** WORKER: `inline` runs the pipeline's jobs in the API process; `off` leaves them to `npm run registry -- worker`. */
  worker: 'inline' | 'off'
  /** WEB_INTERNAL_URL: the website, told to regenerate a node's page when a version goes Active. */
  webUrl: string | undefined
  /** REVALIDATE_SECRET: shared with the website, proves those requests come from the API. */
  revalidateSecret: string | undefined
  /** REDIS_URL: API processes that share the load share their rate limits there; else in memory. */
  redisUrl: string | undefined
  /** REDIS_KEY_PREFIX: put before every key this API writes to Redis. */
  redisKeyPrefix: string
  /** RATE_LIMIT_SCALE: multiplies every limit of API_RATE_LIMITS (benchmarks); 0 turns them off. */
  rateLimitScale: number
  /**
   * TRUST_PROXY: behind a load balancer, take the client's address from X-Forwarded-For (`true`,
   * or the proxies' addresses and ranges, comma-separated), so per-address limits count clients.
   */
  trustProxy: boolean | string[]
  /**
   * PUBLIC_CACHE_MS: how long an anonymous answer of a hot public read is reused (0: only
   * identical requests in flight share one; see server/http/public-cache.ts), and how old a read
   * of the node rows' change log an anonymous listing page may rest on (row-changes.ts).
   */
  publicCacheMs: number
  /**
   * ORDERING_CACHE_MS: how long the order of a public listing or search is reused while the
   * catalogue does not change (0: never; see server/nodes/ordering-cache.ts).
   */
  orderingCacheMs: number
  /**
   * NODE_ROW_CACHE: how many nodes' rows listings and searches keep in memory, read again once
   * the database logs a change to them (0: none; see server/nodes/row-cache.ts).
   */
  nodeRowCache: number
  /**
   * SEARCH_TERM_INDEX_MS: the least time between two builds of the search term index, the public
   * nodes' words each API process keeps for searches, built again when the catalogue changed
   * (0: none, searches ask the database alone; see server/nodes/term-index.ts).
   */
  searchTermIndexMs: number
  /**
   * SHARED_NODE_JSON_MS: how soon the JSON of nodes this process writes for the public listing is
   * stored in the database, where other processes and later ones send it instead of reading the
   * nodes' rows (0: neither stored nor read; see server/nodes/shared-json.ts).
   */
  sharedNodeJsonMs: number
  /**
   * SHARED_LISTING_PAGES_MS: how soon a page of the public listing this process wrote from rows
   * it read is stored in the database, where other processes and later ones send it while its
   * nodes are unchanged (0: neither stored nor read; see server/nodes/shared-pages.ts).
   */
  sharedListingPagesMs: number
  /**
   * PROXY_<PROVIDER>_URL and PROXY_<PROVIDER>_KEY, PROXY_TIMEOUT_MS: the AI providers that
   * `/proxy/...` lookups reach (server/proxy/providers.ts).
   */
  proxy: ProxyConfig
  /**
   * PROXY_LOG_FLUSH_MS: provider lookups are recorded in memory and written this often (0: each
   * at once; see server/proxy/lookup-log.ts).
   */
  proxyLogFlushMs: number
  /** CI_UPLOAD_TOKENS: the tokens CI jobs send to POST /upload-artifact (comma-separated). */
  ciUploadTokens: string[]
  /** RELEASES_WEBHOOK_SECRET: what GitHub signs `release` webhooks with (unset: refused, 503). */
  releasesWebhookSecret?: string
  /**
   * DOWNLOAD_FLUSH_MS: installs are counted in memory and written this often (0: each at once;
   * see server/nodes/download-counter.ts).
   */
  downloadFlushMs: number
  /**
   * METRICS_TOKEN: lets a scraper read /metrics from elsewhere than this machine (`Authorization:
   * Bearer <token>`); without it, only loopback may (server/system/metrics.ts).
   */
  metricsToken: string | undefined
  /**
   * LOG_LEVEL (default `info`; `silent` under NODE_ENV=test) and LOG_FORMAT (`json`, the default
   * under NODE_ENV=production, or `pretty`): one line per request and per job (system/logging.ts).
   */
  log: LogSettings
  /**
   * WORKER_METRICS_HOST (default 127.0.0.1) and WORKER_METRICS_PORT (default 9464; `off`: none):
   * where `npm run registry -- worker` serves its /metrics.
   */
  workerMetrics: { host: string; port: number } | null
  /**
   * Where archives and CI artifacts are kept: the local folder `DATA_DIR/archives` (default), or
   * an S3-compatible bucket when S3_BUCKET is set (server/storage/from-config.ts).
   */
  storage: { kind: 'local' } | ({ kind: 's3' } & S3StorageConfig)
}

/** Shorter tokens are guessable; a scraper's token is made once (`openssl rand -hex 32`). */
export const MIN_METRICS_TOKEN_LENGTH = 24

function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (value.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(value)) {
    throw new Error(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (e.g. the output of \`openssl rand -hex 32\`); it has ${value.length}.`,
    )
  }
  return value
}

function workerMetrics(host: string | undefined, port: string | undefined) {
  if (port === 'off') return null
  const number = Number(port ?? 9464)
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    throw new Error(
      `WORKER_METRICS_PORT must be a port number (0-65535) or 'off'; it is '${port}'.`,
    )
  }
  return { host: host || '127.0.0.1', port: number }
}

/** The longest a SigV4 presigned URL may live (7 days). */
const MAX_PRESIGN_TTL_S = 7 * 24 * 60 * 60

function httpUrl(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`${name} must be an http(s) URL; it is '${value}'.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL; it is '${value}'.`)
  }
  return value.replace(/\/+$/, '')
}

/** S3_BUCKET selects the bucket; the other S3 settings without it are a mistake worth stopping for. */
function storageConfig(env: Record<string, string | undefined>): ServerConfig['storage'] {
  const bucket = env.S3_BUCKET?.trim()
  if (!bucket) {
    const s3Settings = {
      S3_ENDPOINT: env.S3_ENDPOINT,
      S3_PUBLIC_ENDPOINT: env.S3_PUBLIC_ENDPOINT,
      S3_REGION: env.S3_REGION,
      S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE,
      S3_PRESIGN_TTL_S: env.S3_PRESIGN_TTL_S,
      ARCHIVE_PUBLIC_BASE_URL: env.ARCHIVE_PUBLIC_BASE_URL,
    }
    const stray = Object.entries(s3Settings)
      .filter(([, value]) => value)
      .map(([name]) => name)
    if (stray.length > 0) {
      throw new Error(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not: set S3_BUCKET to keep archives in that bucket, or unset ${stray.length > 1 ? 'them' : 'it'} to keep them in DATA_DIR.`,
      )
    }
    return { kind: 'local' }
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(
      `S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, '.' and '-'); it is '${bucket}'.`,
    )
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error(
      `S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: ${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is missing (unset both to use the AWS SDK's default credentials).`,
    )
  }
  const presignTtlS = nonNegative('S3_PRESIGN_TTL_S', env.S3_PRESIGN_TTL_S ?? '900')
  if (!Number.isInteger(presignTtlS) || presignTtlS < 60 || presignTtlS > MAX_PRESIGN_TTL_S) {
    throw new Error(
      `S3_PRESIGN_TTL_S must be a whole number of seconds from 60 to ${MAX_PRESIGN_TTL_S}; it is '${env.S3_PRESIGN_TTL_S}'.`,
    )
  }
  return {
    kind: 's3',
    bucket,
    endpoint: env.S3_ENDPOINT ? httpUrl('S3_ENDPOINT', env.S3_ENDPOINT) : undefined,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT
      ? httpUrl('S3_PUBLIC_ENDPOINT', env.S3_PUBLIC_ENDPOINT)
      : undefined,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle:
      oneOf('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE || 'false', ['true', 'false']) ===
      'true',
    publicBaseUrl: env.ARCHIVE_PUBLIC_BASE_URL
      ? httpUrl('ARCHIVE_PUBLIC_BASE_URL', env.ARCHIVE_PUBLIC_BASE_URL)
      : undefined,
    presignTtlS,
  }
}

function nonNegative(name: string, value: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
    throw new Error(`${name} must be a number of 0 or more; it is '${value}'.`)
  }
  return number
}

function trustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === '' || value === 'false') return false
  return value === 'true' ? true : list(value)
}

/** One of `allowed`, or a clear start-up error naming the variable. */
function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((item) => item === value)
  if (found === undefined) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}; it is '${value}'.`)
  }
  return found
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const port = Number(env.API_PORT ?? env.PORT ?? 8080)
  const host = env.API_HOST ?? 'localhost'
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    publicUrl: (env.API_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    adminEmails: list(env.ADMIN_EMAILS).map((email) => email.toLowerCase()),
    firebaseProjectId:
      env.FIREBASE_PROJECT_ID ?? env.NEXT_PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-comfy-registry',
    githubApiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, ''),
    trustedPublishing: {
      issuer: (
        env.TRUSTED_PUBLISHING_ISSUER || 'https://token.actions.githubusercontent.com'
      ).replace(/\/$/, ''),
      audience: env.TRUSTED_PUBLISHING_AUDIENCE || DEFAULT_TRUSTED_PUBLISHING_AUDIENCE,
    },
    maxArchiveBytes: Math.round(Number(env.MAX_ARCHIVE_MB ?? 50) * 1024 * 1024),
    corsOrigins: list(env.CORS_ORIGINS ?? 'http://localhost:3000,http://127.0.0.1:3000'),
    partnerNodeConversionRate: Number(env.PARTNER_NODE_CONVERSION_RATE ?? 1),
    databaseTimeouts: {
      ...DEFAULT_DATABASE_TIMEOUTS,
      statementMs: Number(env.DB_STATEMENT_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.statementMs),
      lockMs: Number(env.DB_LOCK_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.lockMs),
    },
    reviewMode: oneOf('REVIEW_MODE', env.REVIEW_MODE ?? 'auto', ['auto', 'manual']),
    flagSeverity: oneOf(
      'SCAN_FLAG_SEVERITY',
      env.SCAN_FLAG_SEVERITY ?? DEFAULT_FLAG_SEVERITY,
      SEVERITIES,
    ),
    worker: oneOf('WORKER', env.WORKER ?? 'inline', ['inline', 'off']),
    webUrl: env.WEB_INTERNAL_URL?.replace(/\/$/, '') || undefined,
    revalidateSecret: env.REVALIDATE_SECRET || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'registry:',
    rateLimitScale: nonNegative('RATE_LIMIT_SCALE', env.RATE_LIMIT_SCALE ?? '1'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicCacheMs: nonNegative('PUBLIC_CACHE_MS', env.PUBLIC_CACHE_MS ?? '1000'),
    orderingCacheMs: nonNegative('ORDERING_CACHE_MS', env.ORDERING_CACHE_MS ?? '60000'),
    nodeRowCache: nonNegative('NODE_ROW_CACHE', env.NODE_ROW_CACHE ?? '100000'),
    searchTermIndexMs: nonNegative('SEARCH_TERM_INDEX_MS', env.SEARCH_TERM_INDEX_MS ?? '60000'),
    sharedNodeJsonMs: nonNegative('SHARED_NODE_JSON_MS', env.SHARED_NODE_JSON_MS ?? '1000'),
    sharedListingPagesMs: nonNegative(
      'SHARED_LISTING_PAGES_MS',
      env.SHARED_LISTING_PAGES_MS ?? '1000',
    ),
    proxy: providerConfigFromEnv(env),
    proxyLogFlushMs: nonNegative('PROXY_LOG_FLUSH_MS', env.PROXY_LOG_FLUSH_MS ?? '1000'),
    ciUploadTokens: list(env.CI_UPLOAD_TOKENS),
    releasesWebhookSecret: env.RELEASES_WEBHOOK_SECRET || undefined,
    downloadFlushMs: nonNegative('DOWNLOAD_FLUSH_MS', env.DOWNLOAD_FLUSH_MS ?? '1000'),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    log: {
      level: oneOf(
        'LOG_LEVEL',
        env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
        LOG_LEVELS,
      ),
      format: oneOf(
        'LOG_FORMAT',
        env.LOG_FORMAT || (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
        LOG_FORMATS,
      ),
    },
    workerMetrics: workerMetrics(env.WORKER_METRICS_HOST, env.WORKER_METRICS_PORT),
    storage: storageConfig(env),
  }
}
