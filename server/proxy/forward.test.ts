import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { forwardLookup, MAX_ANSWER_BYTES, type ProxyAnswer } from './forward'
import {
  DEFAULT_PROXY_TIMEOUT_MS,
  PROVIDERS,
  providerConfigFromEnv,
  upstreamPath,
  type Provider,
  type ProxyConfig,
} from './providers'

// ───────────── fake providers: one small HTTP server per shape of answer ─────────────

interface Received {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
}

interface FakeProvider {
  url: string
  received: Received[]
  close(): Promise<void>
}

const started: FakeProvider[] = []
const timers: NodeJS.Timeout[] = []

async function fakeProvider(
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<FakeProvider> {
  const received: Received[] = []
  const server = http.createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    })
    handle(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const fake: FakeProvider = {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  started.push(fake)
  return fake
}

const sendJson = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

const SLOW_MS = 5000
const TASK = { id: 'task-1', status: 'succeeded', output: { video: 'https://cdn.example/1.mp4' } }

let answers: FakeProvider // 200 JSON
let notFound: FakeProvider // 404 JSON
let errorStatus: FakeProvider // the status named in the path, with a JSON body
let slow: FakeProvider // answers only after SLOW_MS
let stalling: FakeProvider // headers and half a body, then nothing
let html: FakeProvider // an HTML page (status from the path)
let empty: FakeProvider // 200 with no body
let huge: FakeProvider // bodies around MAX_ANSWER_BYTES
let redirecting: FakeProvider // 302 to another host
let unreachableUrl: string // a port that was opened, then closed

beforeAll(async () => {
  answers = await fakeProvider((_request, response) => sendJson(response, 200, TASK))
  notFound = await fakeProvider((_request, response) =>
    sendJson(response, 404, { code: 1201, message: 'task not found' }),
  )
  errorStatus = await fakeProvider((request, response) => {
    const status = Number(/\/status\/(\d+)/.exec(request.url ?? '')?.[1] ?? 500)
    sendJson(response, status, { error: { code: status, message: 'provider says no' } })
  })
  slow = await fakeProvider((_request, response) => {
    timers.push(setTimeout(() => sendJson(response, 200, TASK), SLOW_MS))
  })
  stalling = await fakeProvider((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{"id":"task-1","sta')
  })
  html = await fakeProvider((request, response) => {
    const status = Number(/\/status\/(\d+)/.exec(request.url ?? '')?.[1] ?? 200)
    response.writeHead(status, { 'content-type': 'text/html' })
    response.end('<html><body>502 Bad Gateway</body></html>')
  })
  empty = await fakeProvider((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end()
  })
  huge = await fakeProvider((request, response) => {
    // A JSON document of exactly `size` bytes: {"data":"xxx…"}.
    const document = (size: number) => `{"data":"${'x'.repeat(size - 11)}"}`
    if (request.url === '/under')
      return sendJson(response, 200, JSON.parse(document(MAX_ANSWER_BYTES)))
    const body = Buffer.from(document(MAX_ANSWER_BYTES + 1))
    if (request.url === '/declared') {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
      })
      response.end(body)
      return
    }
    // Chunked, so only counting the bytes read can stop it.
    response.writeHead(200, { 'content-type': 'application/json' })
    for (let offset = 0; offset < body.length; offset += 64 * 1024) {
      response.write(body.subarray(offset, offset + 64 * 1024))
    }
    response.end()
  })
  redirecting = await fakeProvider((_request, response) => {
    response.writeHead(302, { location: `${answers.url}/stolen` })
    response.end()
  })
  const closed = await fakeProvider(() => {})
  unreachableUrl = closed.url
  await closed.close()
})

afterAll(async () => {
  timers.forEach(clearTimeout)
  await Promise.all(started.map((fake) => fake.close().catch(() => {})))
})

// ───────────── helpers ─────────────

const KEY = 'sk-registry-secret-0123456789'
const KLING_ACCESS = 'ak-registry-access'
const KLING_SECRET = 'kling-secret:with-colon-0123456789'

function configFor(
  provider: Provider,
  url: string,
  options: { key?: string; timeoutMs?: number } = {},
): ProxyConfig {
  return {
    timeoutMs: options.timeoutMs ?? 2000,
    providers: { [provider]: { url, key: options.key ?? KEY } },
  }
}

/** What fetch itself adds to every request; everything else must come from the provider table. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
])

function providerHeaders(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)),
  )
}

const last = (fake: FakeProvider) => fake.received[fake.received.length - 1]

// ───────────── configuration ─────────────

describe('providerConfigFromEnv', () => {
  it('defaults to a 10 s limit and no provider', () => {
    expect(providerConfigFromEnv({})).toEqual({ timeoutMs: 10_000, providers: {} })
    expect(DEFAULT_PROXY_TIMEOUT_MS).toBe(10_000)
  })

  it('configures a provider only when both its URL and its key are set', () => {
    const config = providerConfigFromEnv({
      PROXY_LUMA_URL: 'https://api.lumalabs.ai/dream-machine/v1/',
      PROXY_LUMA_KEY: 'luma-key',
      PROXY_RUNWAY_URL: 'https://api.dev.runwayml.com/v1',
      PROXY_TRIPO_KEY: 'tsk_only-a-key',
      PROXY_OPENAI_URL: 'https://api.openai.com',
      PROXY_OPENAI_KEY: '',
      PROXY_TIMEOUT_MS: '2500',
    })
    expect(config).toEqual({
      timeoutMs: 2500,
      providers: { luma: { url: 'https://api.lumalabs.ai/dream-machine/v1', key: 'luma-key' } },
    })
  })

  it('removes trailing slashes and surrounding spaces', () => {
    const config = providerConfigFromEnv({
      PROXY_STABILITY_URL: ' http://127.0.0.1:8080/// ',
      PROXY_STABILITY_KEY: ' sk-stability\n',
    })
    expect(config.providers.stability).toEqual({
      url: 'http://127.0.0.1:8080',
      key: 'sk-stability',
    })
  })

  it('covers every provider', () => {
    const env = Object.fromEntries(
      PROVIDERS.flatMap((provider) => [
        [`PROXY_${provider.toUpperCase()}_URL`, `https://${provider}.example`],
        [`PROXY_${provider.toUpperCase()}_KEY`, provider === 'kling' ? 'ak:sk' : `${provider}-key`],
      ]),
    )
    expect(Object.keys(providerConfigFromEnv(env).providers).sort()).toEqual([...PROVIDERS].sort())
  })

  it.each(['ftp://api.example.com', 'api.example.com', 'javascript:alert(1)', 'https://'])(
    'names the variable when the URL is %s',
    (url) => {
      expect(() => providerConfigFromEnv({ PROXY_LUMA_URL: url, PROXY_LUMA_KEY: 'k' })).toThrow(
        /PROXY_LUMA_URL must be an http\(s\) URL/,
      )
    },
  )

  it('checks a URL even before its key is set', () => {
    expect(() => providerConfigFromEnv({ PROXY_PIKA_URL: 'gopher://pika' })).toThrow(
      /PROXY_PIKA_URL/,
    )
  })

  it('refuses credentials in the URL without repeating them', () => {
    const attempt = () =>
      providerConfigFromEnv({ PROXY_OPENAI_URL: 'https://user:hunter2@api.openai.com' })
    expect(attempt).toThrow(/PROXY_OPENAI_URL must not contain credentials/)
    expect(attempt).not.toThrow(/hunter2/)
  })

  it('refuses a Kling key that is not an access/secret pair, without repeating it', () => {
    const attempt = () =>
      providerConfigFromEnv({ PROXY_KLING_URL: 'https://api.klingai.com', PROXY_KLING_KEY: KEY })
    expect(attempt).toThrow(/PROXY_KLING_KEY must be "accessKey:secretKey"/)
    expect(attempt).not.toThrow(KEY)
  })

  it('refuses a key that cannot travel in a header', () => {
    expect(() =>
      providerConfigFromEnv({ PROXY_LUMA_URL: 'https://x.example', PROXY_LUMA_KEY: 'a b' }),
    ).toThrow(/PROXY_LUMA_KEY/)
  })

  it.each(['-1', '1.5', 'ten', '1e3', '2147483648'])(
    'names PROXY_TIMEOUT_MS when it is %s',
    (value) => {
      expect(() => providerConfigFromEnv({ PROXY_TIMEOUT_MS: value })).toThrow(
        new RegExp(`PROXY_TIMEOUT_MS must be a whole number.*'${value.replace('.', '\\.')}'`),
      )
    },
  )

  it.each([
    ['0', 0],
    ['250', 250],
    ['', 10_000],
  ])('reads PROXY_TIMEOUT_MS=%p as %p', (value, expected) => {
    expect(providerConfigFromEnv({ PROXY_TIMEOUT_MS: value }).timeoutMs).toBe(expected)
  })
})

describe('upstreamPath', () => {
  it.each([
    ['kling', '/proxy/kling/v1/videos/text2video/abc', '/v1/videos/text2video/abc'],
    [
      'minimax',
      '/proxy/minimax/query/video_generation?task_id=42',
      '/query/video_generation?task_id=42',
    ],
    ['tripo', '/proxy/tripo/v2/openapi/user/balance', '/v2/openapi/user/balance'],
    ['luma', '/proxy/luma', '/'],
    ['luma', '/proxy/luma?x=1', '/?x=1'],
  ] as const)('%s: %s → %s', (provider, contractPath, expected) => {
    expect(upstreamPath(provider, contractPath)).toBe(expected)
  })

  it.each([
    ['luma', '/proxy/lumax/generations/1'],
    ['luma', '/proxy/kling/v1/videos/text2video/abc'],
    ['luma', '/generations/1'],
  ] as const)('refuses %s for %s', (provider, contractPath) => {
    expect(() => upstreamPath(provider, contractPath)).toThrow(RangeError)
  })
})

// ───────────── forwarding ─────────────

describe('forwardLookup: answers passed through', () => {
  it('passes a 200 JSON answer through unchanged, with the path and query', async () => {
    const answer = await forwardLookup(
      configFor('minimax', `${answers.url}/api`),
      'minimax',
      '/query/video_generation?task_id=abc%20def&b=2',
    )
    expect(answer).toEqual({
      status: 200,
      body: TASK,
      outcome: 'answered',
      latencyMs: expect.any(Number),
    })
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0)
    expect(last(answers)).toMatchObject({
      method: 'GET',
      url: '/api/query/video_generation?task_id=abc%20def&b=2',
    })
  })

  it('passes a 404 JSON answer through unchanged', async () => {
    const answer = await forwardLookup(configFor('luma', notFound.url), 'luma', '/generations/nope')
    expect(answer).toMatchObject({
      status: 404,
      body: { code: 1201, message: 'task not found' },
      outcome: 'answered',
    })
  })

  it.each([400, 401, 429, 500, 503])(
    'passes a %i JSON answer through unchanged',
    async (status) => {
      const answer = await forwardLookup(
        configFor('openai', errorStatus.url),
        'openai',
        `/status/${status}`,
      )
      expect(answer).toMatchObject({
        status,
        body: { error: { code: status, message: 'provider says no' } },
        outcome: 'answered',
      })
    },
  )

  it('accepts an answer of exactly the size limit', async () => {
    const answer = await forwardLookup(configFor('tripo', huge.url), 'tripo', '/under')
    expect(answer.outcome).toBe('answered')
    expect(JSON.stringify(answer.body)).toHaveLength(MAX_ANSWER_BYTES)
  })

  it('with PROXY_TIMEOUT_MS=0, waits as long as the provider takes', async () => {
    const answer = await forwardLookup(
      configFor('luma', answers.url, { timeoutMs: 0 }),
      'luma',
      '/g/1',
    )
    expect(answer).toMatchObject({ status: 200, outcome: 'answered' })
  })
})

describe('forwardLookup: headers sent upstream', () => {
  const bearerProviders = ['luma', 'minimax', 'moonvalley', 'openai', 'stability', 'tripo'] as const

  it.each(bearerProviders)('%s: only Authorization: Bearer <key> and Accept', async (provider) => {
    await forwardLookup(configFor(provider, answers.url), provider, '/task/1')
    expect(providerHeaders(last(answers).headers)).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${KEY}`,
    })
  })

  it('runway: the bearer key and the API version it was written against', async () => {
    await forwardLookup(configFor('runway', answers.url), 'runway', '/tasks/1')
    expect(providerHeaders(last(answers).headers)).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${KEY}`,
      'x-runway-version': '2024-11-06',
    })
  })

  it('pika: the key in X-API-KEY', async () => {
    await forwardLookup(configFor('pika', answers.url), 'pika', '/videos/1')
    expect(providerHeaders(last(answers).headers)).toEqual({
      accept: 'application/json',
      'x-api-key': KEY,
    })
  })

  it('pixverse: the key in API-KEY and a new UUID trace id per request', async () => {
    await forwardLookup(configFor('pixverse', answers.url), 'pixverse', '/video/result/1')
    const first = providerHeaders(last(answers).headers)
    await forwardLookup(configFor('pixverse', answers.url), 'pixverse', '/video/result/1')
    const second = providerHeaders(last(answers).headers)
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(first).toEqual({
      accept: 'application/json',
      'api-key': KEY,
      'ai-trace-id': expect.stringMatching(uuid),
    })
    expect(second['ai-trace-id']).toEqual(expect.stringMatching(uuid))
    expect(second['ai-trace-id']).not.toBe(first['ai-trace-id'])
  })

  it('kling: a JWT signed HS256 with the secret key, issued by the access key', async () => {
    const now = 1_700_000_000_750
    await forwardLookup(
      configFor('kling', answers.url, { key: `${KLING_ACCESS}:${KLING_SECRET}` }),
      'kling',
      '/v1/videos/text2video/abc',
      { now: () => now },
    )
    const headers = providerHeaders(last(answers).headers)
    expect(Object.keys(headers).sort()).toEqual(['accept', 'authorization'])
    const token = /^Bearer (.+)$/.exec(String(headers.authorization))?.[1] ?? ''
    expect(token).not.toContain(KLING_SECRET)
    const [header, payload, signature] = token.split('.')
    const expected = createHmac('sha256', KLING_SECRET).update(`${header}.${payload}`).digest()
    const actual = Buffer.from(signature ?? '', 'base64url')
    expect(actual.length).toBe(expected.length)
    expect(timingSafeEqual(actual, expected)).toBe(true)
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(decode(payload)).toEqual({
      iss: KLING_ACCESS,
      exp: 1_700_000_000 + 1800,
      nbf: 1_700_000_000 - 5,
    })
  })
})

describe('forwardLookup: failures', () => {
  /** Every answer that is not the provider's own, to check none of them shows the key. */
  const failures: ProxyAnswer[] = []
  const record = (answer: ProxyAnswer) => {
    failures.push(answer)
    return answer
  }

  it('not configured → 503 naming both variables, without calling anyone', async () => {
    const before = answers.received.length
    const halfConfigured = providerConfigFromEnv({ PROXY_LUMA_URL: answers.url })
    const answer = record(await forwardLookup(halfConfigured, 'luma', '/generations/1'))
    expect(answer).toMatchObject({
      status: 503,
      outcome: 'not_configured',
      body: {
        error: 'Service Unavailable',
        message: 'The luma provider is not configured: set PROXY_LUMA_URL and PROXY_LUMA_KEY.',
      },
    })
    expect(answers.received.length).toBe(before)
  })

  it('a provider slower than the limit → 504 without waiting for it', async () => {
    const begin = performance.now()
    const answer = record(
      await forwardLookup(configFor('runway', slow.url, { timeoutMs: 200 }), 'runway', '/tasks/1'),
    )
    expect(performance.now() - begin).toBeLessThan(SLOW_MS / 2)
    expect(answer).toMatchObject({
      status: 504,
      outcome: 'timeout',
      body: {
        error: 'Gateway Timeout',
        message: 'The runway provider did not answer within 200 ms.',
      },
    })
  })

  it('a body that stalls after the headers → 504 as well', async () => {
    const answer = record(
      await forwardLookup(configFor('luma', stalling.url, { timeoutMs: 200 }), 'luma', '/g/1'),
    )
    expect(answer).toMatchObject({ status: 504, outcome: 'timeout' })
  })

  it('the caller going away stops the lookup and rejects with its reason', async () => {
    const controller = new AbortController()
    const reason = new Error('client went away')
    timers.push(setTimeout(() => controller.abort(reason), 100))
    const begin = performance.now()
    await expect(
      forwardLookup(configFor('luma', slow.url), 'luma', '/g/1', { signal: controller.signal }),
    ).rejects.toBe(reason)
    expect(performance.now() - begin).toBeLessThan(SLOW_MS / 2)
  })

  it('nothing listening → 502 unreachable', async () => {
    const answer = record(
      await forwardLookup(configFor('openai', unreachableUrl), 'openai', '/v1/responses/1'),
    )
    expect(answer).toMatchObject({
      status: 502,
      outcome: 'unreachable',
      body: { error: 'Bad Gateway', message: 'The openai provider could not be reached.' },
    })
  })

  it.each([
    ['/ok', 200],
    ['/status/502', 502],
  ])('an HTML page (%s) → 502 bad_answer naming its status', async (path, status) => {
    const answer = record(await forwardLookup(configFor('stability', html.url), 'stability', path))
    expect(answer).toMatchObject({
      status: 502,
      outcome: 'bad_answer',
      body: {
        error: 'Bad Gateway',
        message: `The stability provider answered with something other than JSON (HTTP ${status}).`,
      },
    })
  })

  it('an empty body → 502 bad_answer', async () => {
    const answer = record(
      await forwardLookup(configFor('tripo', empty.url), 'tripo', '/v2/openapi/task/1'),
    )
    expect(answer).toMatchObject({
      status: 502,
      outcome: 'bad_answer',
      body: { message: 'The tripo provider answered with something other than JSON (HTTP 200).' },
    })
  })

  it.each(['/chunked', '/declared'])(
    'a body over the limit (%s) → 502 bad_answer',
    async (path) => {
      const answer = record(await forwardLookup(configFor('tripo', huge.url), 'tripo', path))
      expect(answer).toMatchObject({
        status: 502,
        outcome: 'bad_answer',
        body: { error: 'Bad Gateway' },
      })
      expect(JSON.stringify(answer.body)).toContain(`more than ${MAX_ANSWER_BYTES} bytes`)
    },
  )

  it('a redirect → 502 bad_answer, and the key does not follow it', async () => {
    const answer = record(
      await forwardLookup(configFor('pika', redirecting.url), 'pika', '/videos/1'),
    )
    expect(answer).toMatchObject({ status: 502, outcome: 'bad_answer' })
    expect(answers.received.some((request) => request.url === '/stolen')).toBe(false)
  })

  it('no error body shows the key', () => {
    expect(failures.map((answer) => answer.status).sort()).toEqual([
      502, 502, 502, 502, 502, 502, 502, 503, 504, 504,
    ])
    for (const answer of failures) {
      const text = JSON.stringify(answer.body)
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(KLING_SECRET)
    }
  })

  it.each(['/../admin', '/%2e%2e/admin', '/%2E%2E?x=1'])(
    'refuses a path that climbs out of the base URL (%s) without calling it',
    async (path) => {
      const before = answers.received.length
      await expect(
        forwardLookup(configFor('moonvalley', `${answers.url}/v1`), 'moonvalley', path),
      ).rejects.toThrow(RangeError)
      expect(answers.received.length).toBe(before)
    },
  )

  it('refuses a path that does not start with /', async () => {
    await expect(
      forwardLookup(configFor('luma', answers.url), 'luma', '@evil.example/generations/1'),
    ).rejects.toThrow(RangeError)
  })
})
