// `npm run bench:web`: the website as users and crawlers meet it. Starts its own stack (own ports
// and data folder, like the e2e tests), then
//   (a) Lighthouse 12 in Debian's Chromium on `/`, a node page and a publisher page: performance,
//       accessibility, SEO and best-practices scores, LCP, TBT, CLS, and the node page's
//       first-load JavaScript (gzipped bytes on the wire);
//   (b) the server HTML of node pages (the sampled one and the biggest of the first hundred), raw
//       and gzipped, and time to first byte of the home and node pages (served from the page cache);
//   (c) CORS preflights: a Chromium visits the node page twice and counts the preflights of each
//       visit (the second one should make none: Access-Control-Max-Age);
//   (d) autocannon throughput of the server-rendered node page against the same HTML served as a
//       static file by the same Next server.
// Prints a table with the targets and writes bench-results/web.json.
//   --seconds N (autocannon, default 10)   --connections N (default 10)
//   --runs N (Lighthouse runs per page, default 3; the median run by performance score counts)
//   --port-offset N (added to the stack's ports 3300/8380/9599, so two benches can run at once)
// Every Lighthouse report is kept as bench-results/lighthouse/<page>-<run>.json (the LCP's
// phases, the critical request chains, the network requests the simulation starts from).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { chromium } from 'playwright-core'
import { SCRIPT_LIST_ELEMENT_ID } from '../../security-headers.config'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium'

const root = path.resolve(__dirname, '../..')
const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const SECONDS = Number(flag('seconds') ?? 10)
const CONNECTIONS = Number(flag('connections') ?? 10)
const LIGHTHOUSE_RUNS = Math.max(1, Number(flag('runs') ?? 3))
const PORT_OFFSET = Number(flag('port-offset') ?? 0)
const PORTS = { web: 3300 + PORT_OFFSET, api: 8380 + PORT_OFFSET, auth: 9599 + PORT_OFFSET }
const WEB = `http://127.0.0.1:${PORTS.web}`
const API = `http://127.0.0.1:${PORTS.api}`
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS]
/** Served by Next from public/ while the benchmark runs; it must exist before the server starts. */
const STATIC_FILE = path.join(root, 'public', 'bench-static.html')
const STATIC_PATH = '/bench-static.html'

/**
 * First-load JavaScript every page pays before any code of ours (React, Next's runtime, i18next
 * with its React bindings, React Query): docs/ARCHITECTURE.md "Page weight". A page's own part
 * is its first-load JavaScript minus this floor.
 */
const FIXED_STACK_FLOOR_KB = 146.5

const TARGETS = {
  performance: 95,
  lcpMs: 1500,
  accessibility: 100,
  seo: 100,
  nodePageFirstLoadJsKb: 150,
  /** Our own part of a page's first-load JavaScript (above the fixed stack's floor). */
  ownJsKb: 22.9,
  nodePageHtmlKb: 60,
  homePageHtmlKb: 60,
  nodePageTbtMs: 200,
  preflightsOnRepeatVisit: 0,
  ssrToStaticRatio: 0.5,
}

interface PageScores {
  url: string
  performance: number
  accessibility: number
  seo: number
  bestPractices: number
  lcpMs: number
  tbtMs: number
  cls: number
  /** First-load JS: the scripts the page loads itself (what Next calls First Load JS), gzipped. */
  firstLoadJsKbGzip: number
  /** Every script fetched during the Lighthouse run (adds lazy chunks and link prefetches). */
  allJsKbGzip: number
  failedAudits: string[]
  /** The largest contentful paint's element, and its phases (Lighthouse's breakdown, ms). */
  lcpElement: string
  lcpPhases: string
  /** The unthrottled load's own FCP, LCP and DOMContentLoaded (ms), which the simulation starts from. */
  observed: string
  /** The performance scores of every run of this page (the median run is reported). */
  performanceRuns?: number[]
  /** The LCP of every run, in the same order. */
  lcpRuns?: number[]
  /** The total blocking time and the benchmarkIndex of every run, in the same order. */
  tbtRuns?: number[]
  benchmarkIndexRuns?: number[]
  /**
   * Lighthouse's measure of this machine's CPU (higher is faster). Its 4x CPU slowdown is meant
   * for a high-end desktop (1500-2000); on a slower host the same page scores lower, so scores
   * from different machines compare only together with this figure.
   */
  benchmarkIndex: number
  /** Failing accessibility checks with a few of the elements concerned. */
  accessibilityIssues: { id: string; elements: string[] }[]
}

interface ThroughputResult {
  url: string
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  errors: number
  non2xx: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const kb = (bytes: number) => Number((bytes / 1024).toFixed(1))

function startStack(): ChildProcess {
  const dataDir = path.join(root, '.test-data', 'bench-web')
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      WEB_PORT: String(PORTS.web),
      API_PORT: String(PORTS.api),
      AUTH_EMULATOR_PORT: String(PORTS.auth),
      DATA_DIR: dataDir,
      NEXT_PUBLIC_SITE_URL: WEB,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  })
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      // The stack's own progress, without the request log.
      if (line.trim() && !/^\s*(GET|POST|PUT|DELETE|HEAD) /.test(line)) {
        process.stdout.write(`  [stack] ${line}\n`)
      }
    }
  }
  child.stdout?.on('data', log)
  child.stderr?.on('data', log)
  return child
}

async function waitForWeb(child: ChildProcess, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The stack exited early (code ${child.exitCode}).`)
    try {
      const response = await fetch(`${WEB}/`)
      if (response.ok) return
    } catch {
      // not up yet
    }
    await sleep(500)
  }
  throw new Error(`The website did not answer on ${WEB} within ${timeoutMs / 1000} s.`)
}

async function stopStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGINT')
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  await exited
  clearTimeout(timer)
}

interface NodeListResponse {
  nodes: { id: string; publisher?: { id: string } }[]
}

async function samplePages(): Promise<{ nodeId: string; publisherId: string }> {
  const response = await fetch(`${API}/nodes?limit=10`)
  const list = (await response.json()) as NodeListResponse
  const node = list.nodes.find((candidate) => candidate.publisher)
  if (!node?.publisher) throw new Error('No node with a publisher in the demo data.')
  return { nodeId: node.id, publisherId: node.publisher.id }
}

interface NetworkRequest {
  resourceType?: string
  transferSize?: number
  url?: string
  /** ms after the page's first request. */
  networkRequestTime?: number
}

/**
 * The scripts a page loads itself: its `<script src>` tags and the list the loader appends after
 * the first paint (pages/_document.tsx).
 */
function pageScriptUrls(html: string): string[] {
  const tags = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1])
  const list = new RegExp(`<script id="${SCRIPT_LIST_ELEMENT_ID}"[^>]*>([^<]*)</script>`).exec(html)
  const listed = list ? (JSON.parse(list[1]) as { src: string }[]).map((script) => script.src) : []
  return [...tags, ...listed]
}

/** `largest-contentful-paint-element`: a table with the element, then one with the phases. */
interface LcpElementTable {
  items?: { node?: { snippet?: string; selector?: string }; phase?: string; timing?: number }[]
}

async function lighthouseScores(urls: Record<string, string>): Promise<PageScores[]> {
  const { default: lighthouse } = await import('lighthouse')
  const chromeLauncher = await import('chrome-launcher')
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
  })
  const results: PageScores[] = []
  try {
    const reports = path.join(root, 'bench-results', 'lighthouse')
    fs.mkdirSync(reports, { recursive: true })
    for (const [name, url] of Object.entries(urls)) {
      const runs: PageScores[] = []
      for (let attempt = 0; attempt < LIGHTHOUSE_RUNS; attempt += 1) {
        // Warm the server, and read which scripts the page itself loads.
        const html = await (await fetch(url)).text()
        const ownScripts = new Set(pageScriptUrls(html).map((src) => new URL(src, url).pathname))
        const run = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'seo', 'best-practices'],
        })
        if (!run) throw new Error(`Lighthouse returned nothing for ${url}.`)
        const { lhr } = run
        fs.writeFileSync(path.join(reports, `${name}-${attempt + 1}.json`), JSON.stringify(lhr))
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
        const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN
        const details = lhr.audits['network-requests']?.details
        const items = (details && 'items' in details ? details.items : []) as NetworkRequest[]
        const scripts = items.filter((item) => item.resourceType === 'Script')
        const bytes = (list: NetworkRequest[]) =>
          list.reduce((sum, item) => sum + (item.transferSize ?? 0), 0)
        const firstLoad = scripts.filter((item) =>
          ownScripts.has(new URL(item.url ?? '', url).pathname),
        )
        // When the first of them was asked for, against the observed LCP below.
        const firstLoadStart = Math.min(
          ...firstLoad.map((item) => item.networkRequestTime ?? Infinity),
        )
        const failedAudits = Object.values(lhr.audits)
          .filter(
            (audit) =>
              audit.score !== null &&
              audit.score < 1 &&
              (audit.scoreDisplayMode === 'binary' || audit.scoreDisplayMode === 'numeric'),
          )
          .map((audit) => `${audit.id} (${Math.round((audit.score ?? 0) * 100)})`)
        const accessibilityIssues = (lhr.categories.accessibility?.auditRefs ?? [])
          .map((ref) => lhr.audits[ref.id])
          .filter((audit) => audit && audit.score === 0)
          .map((audit) => {
            const found = audit.details && 'items' in audit.details ? audit.details.items : []
            const elements = (found as { node?: { snippet?: string } }[])
              .slice(0, 3)
              .map((item) => item.node?.snippet ?? '')
            return { id: audit.id, elements }
          })
        const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details
        const lcpTables = (
          lcpDetails && 'items' in lcpDetails ? lcpDetails.items : []
        ) as LcpElementTable[]
        const lcpElement = lcpTables[0]?.items?.[0]?.node
        const lcpPhases = (lcpTables[1]?.items ?? [])
          .map((phase) => `${phase.phase ?? '?'} ${Math.round(phase.timing ?? 0)}`)
          .join(', ')
        // The unthrottled load Lighthouse observed (its simulation counts every script fetched
        // and run before the observed LCP): DOMContentLoaded fires after the deferred scripts ran.
        const metricsDetails = lhr.audits.metrics?.details
        const observed = ((metricsDetails && 'items' in metricsDetails
          ? metricsDetails.items[0]
          : {}) ?? {}) as Record<string, number | undefined>
        const at = (name: string) => Math.round(observed[name] ?? NaN)
        runs.push({
          url,
          observed: `observed FCP ${at('observedFirstContentfulPaint')}, LCP ${at('observedLargestContentfulPaint')}, DOMContentLoaded ${at('observedDomContentLoaded')} ms, first-load scripts asked for from ${Math.round(firstLoadStart)} ms`,
          lcpElement: lcpElement?.snippet ?? lcpElement?.selector ?? '?',
          lcpPhases,
          performance: score('performance'),
          accessibility: score('accessibility'),
          seo: score('seo'),
          bestPractices: score('best-practices'),
          lcpMs: Math.round(numeric('largest-contentful-paint')),
          tbtMs: Math.round(numeric('total-blocking-time')),
          cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
          firstLoadJsKbGzip: kb(bytes(firstLoad)),
          allJsKbGzip: kb(bytes(scripts)),
          failedAudits,
          accessibilityIssues,
          benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
        })
      }
      // Simulated throttling still varies from run to run: the median run counts.
      runs.sort((a, b) => a.performance - b.performance)
      const median = runs[Math.floor(runs.length / 2)]
      results.push({
        ...median,
        performanceRuns: runs.map((run) => run.performance),
        lcpRuns: runs.map((run) => run.lcpMs),
        tbtRuns: runs.map((run) => run.tbtMs),
        benchmarkIndexRuns: runs.map((run) => run.benchmarkIndex),
      })
    }
  } finally {
    chrome.kill()
  }
  return results
}

async function throughput(url: string): Promise<ThroughputResult> {
  // Warm-up, then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 })
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS })
  return {
    url,
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  }
}

interface HtmlSize {
  url: string
  rawKb: number
  gzipKb: number
}

async function htmlSize(url: string): Promise<HtmlSize> {
  const html = Buffer.from(await (await fetch(url)).arrayBuffer())
  return { url, rawKb: kb(html.length), gzipKb: kb(zlib.gzipSync(html).length) }
}

/** The biggest server HTML among the node pages of the first hundred listed nodes. */
async function biggestNodePage(): Promise<HtmlSize> {
  const list = (await (await fetch(`${API}/nodes?limit=100`)).json()) as NodeListResponse
  let biggest: HtmlSize | undefined
  for (const node of list.nodes) {
    const size = await htmlSize(`${WEB}/nodes/${encodeURIComponent(node.id)}`)
    if (!biggest || size.rawKb > biggest.rawKb) biggest = size
  }
  if (!biggest) throw new Error('The demo data lists no nodes.')
  return biggest
}

interface FirstByte {
  url: string
  /** Median time to the response headers over the runs, the page cache warm. */
  medianMs: number
  /** Next's page cache answer (HIT: served from the cache, not rendered for the request). */
  cache: string
}

async function timeToFirstByte(url: string, runs = 21): Promise<FirstByte> {
  await (await fetch(url)).arrayBuffer()
  const times: number[] = []
  let cache = ''
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now()
    const response = await fetch(url)
    times.push(performance.now() - start)
    cache = response.headers.get('x-nextjs-cache') ?? 'none'
    await response.arrayBuffer()
  }
  times.sort((a, b) => a - b)
  return { url, medianMs: Number(times[Math.floor(runs / 2)].toFixed(1)), cache }
}

interface Preflights {
  url: string
  /** CORS preflights of the first visit and of a second visit after it. */
  firstVisit: number
  repeatVisit: number
  apiCallsPerVisit: number
  maxAgeS: number
}

/** Visits `url` twice in one browser profile and counts the CORS preflights of each visit. */
async function preflights(url: string): Promise<Preflights> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    const counts = [0, 0]
    const apiCalls = [0, 0]
    let visit = 0
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.method === 'OPTIONS' || event.initiator.type === 'preflight') {
        counts[visit] += 1
      } else if (new URL(event.request.url).port === String(PORTS.api)) apiCalls[visit] += 1
    })
    for (visit = 0; visit < 2; visit += 1) {
      await page.goto(url, { waitUntil: 'load' })
      // The data refresh after load runs once the browser is idle (at most 2 s later).
      await page.waitForTimeout(4000)
    }
    const answer = await fetch(`${API}/nodes`, {
      method: 'OPTIONS',
      headers: {
        origin: WEB,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'cache-control,pragma,expires',
      },
    })
    return {
      url,
      firstVisit: counts[0],
      repeatVisit: counts[1],
      apiCallsPerVisit: apiCalls[1],
      maxAgeS: Number(answer.headers.get('access-control-max-age') ?? 0),
    }
  } finally {
    await browser.close()
  }
}

/** Our own part of a page's first-load JavaScript: what it loads above the fixed stack's floor. */
const ownJsKb = (name: PageName) =>
  Number((builtFirstLoadKb(PAGE_ROUTES[name]) - FIXED_STACK_FLOOR_KB).toFixed(1))

/** Next's routes of the measured pages, whose chunks .next/build-manifest.json lists. */
const PAGE_ROUTES = {
  home: '/[[...listing]]',
  node: '/nodes/[nodeId]',
  publisher: '/publishers/[publisherId]',
} as const
type PageName = keyof typeof PAGE_ROUTES

/**
 * A page's first-load JavaScript as the build has it (the floor is measured the same way): the
 * page's chunks and _app's, gzipped, without the HTTP headers Lighthouse's transfer sizes include.
 */
function builtFirstLoadKb(route: string): number {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(root, '.next', 'build-manifest.json'), 'utf8'),
  ) as { rootMainFiles?: string[]; pages: Record<string, string[] | undefined> }
  const files = new Set([
    ...(manifest.rootMainFiles ?? []),
    ...(manifest.pages['/_app'] ?? []),
    ...(manifest.pages[route] ?? []),
  ])
  let bytes = 0
  for (const file of files) {
    if (file.endsWith('.js')) {
      bytes += zlib.gzipSync(fs.readFileSync(path.join(root, '.next', file))).length
    }
  }
  return kb(bytes)
}

const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS')

async function main() {
  // The static copy must be in public/ before Next starts (it lists public files at start).
  fs.writeFileSync(STATIC_FILE, '<!doctype html><title>bench</title>')
  console.log(`Starting the stack on :${PORTS.web} (api :${PORTS.api}, auth :${PORTS.auth})…`)
  const stack = startStack()
  const cleanUp = () => fs.rmSync(STATIC_FILE, { force: true })
  process.on('SIGINT', () => {
    cleanUp()
    void stopStack(stack).then(() => process.exit(130))
  })
  try {
    await waitForWeb(stack)
    const { nodeId, publisherId } = await samplePages()
    const nodeUrl = `${WEB}/nodes/${encodeURIComponent(nodeId)}`
    const publisherUrl = `${WEB}/publishers/${encodeURIComponent(publisherId)}`

    console.log(
      `\nLighthouse (default mobile profile, simulated throttling), ${LIGHTHOUSE_RUNS} runs per page…`,
    )
    const [home, nodePage, publisherPage] = await lighthouseScores({
      home: `${WEB}/`,
      node: nodeUrl,
      publisher: publisherUrl,
    })

    console.log('\nServer HTML, time to first byte, preflights…')
    const homeHtml = await htmlSize(`${WEB}/`)
    const nodeHtml = await htmlSize(nodeUrl)
    const publisherHtml = await htmlSize(publisherUrl)
    const biggestNodeHtml = await biggestNodePage()
    const firstByte = {
      home: await timeToFirstByte(`${WEB}/`),
      node: await timeToFirstByte(nodeUrl),
    }
    const preflight = await preflights(nodeUrl)

    console.log(`\nautocannon: ${CONNECTIONS} connections × ${SECONDS} s…`)
    const html = await (await fetch(nodeUrl)).text()
    fs.writeFileSync(STATIC_FILE, html)
    const ssr = await throughput(nodeUrl)
    const staticFile = await throughput(`${WEB}${STATIC_PATH}`)
    cleanUp()
    const ratio = Number((ssr.requestsPerSecond / staticFile.requestsPerSecond).toFixed(3))

    const pages: Record<PageName, PageScores> = { home, node: nodePage, publisher: publisherPage }
    const names = Object.keys(PAGE_ROUTES) as PageName[]
    console.log('\nLighthouse')
    console.log(
      'page        perf  a11y  seo  best   LCP ms  TBT ms    CLS  1st JS kB  our own kB  all JS kB  failed audits',
    )
    for (const name of names) {
      const page = pages[name]
      console.log(
        `${name.padEnd(10)} ${String(page.performance).padStart(5)} ${String(page.accessibility).padStart(5)} ${String(page.seo).padStart(4)} ${String(page.bestPractices).padStart(5)} ${String(page.lcpMs).padStart(8)} ${String(page.tbtMs).padStart(7)} ${String(page.cls).padStart(6)} ${String(page.firstLoadJsKbGzip).padStart(10)} ${String(ownJsKb(name)).padStart(11)} ${String(page.allJsKbGzip).padStart(10)}  ${page.failedAudits.join(', ') || '-'}`,
      )
    }
    console.log(
      `  1st JS: on the wire (with headers); our own: the build's first-load JS (${names.map((name) => `${name} ${builtFirstLoadKb(PAGE_ROUTES[name])} kB`).join(', ')}) − the fixed stack's ${FIXED_STACK_FLOOR_KB} kB floor (docs/ARCHITECTURE.md "Page weight")`,
    )
    for (const [name, page] of Object.entries(pages)) {
      console.log(`  ${name} LCP element: ${page.lcpElement} (${page.lcpPhases}; ${page.observed})`)
    }
    for (const [name, page] of Object.entries(pages)) {
      console.log(
        `  ${name} performance in each run: ${page.performanceRuns?.join(', ')} (LCP ms ${page.lcpRuns?.join(', ')}; TBT ms ${page.tbtRuns?.join(', ')}; benchmarkIndex ${page.benchmarkIndexRuns?.join(', ')})`,
      )
    }
    console.log(
      `  Lighthouse benchmarkIndex of this machine (median runs): ${Object.values(pages)
        .map((page) => page.benchmarkIndex)
        .join(' / ')} (its 4x CPU slowdown assumes 1500-2000)`,
    )
    for (const [name, page] of Object.entries(pages)) {
      for (const issue of page.accessibilityIssues) {
        console.log(`  ${name} accessibility: ${issue.id} ${issue.elements.join(' | ')}`)
      }
    }
    console.log('\nServer HTML (raw / gzip)')
    for (const size of [homeHtml, nodeHtml, biggestNodeHtml, publisherHtml]) {
      console.log(`  ${size.rawKb} kB / ${size.gzipKb} kB  ${size.url}`)
    }
    console.log('Time to first byte (median of 21, page cache warm)')
    for (const [name, byte] of Object.entries(firstByte)) {
      console.log(`  ${name.padEnd(5)} ${byte.medianMs} ms (x-nextjs-cache: ${byte.cache})`)
    }
    console.log(
      `CORS preflights of the node page: ${preflight.firstVisit} on the first visit, ${preflight.repeatVisit} on a repeat visit (${preflight.apiCallsPerVisit} API calls a visit; Access-Control-Max-Age ${preflight.maxAgeS} s)`,
    )
    console.log('\nThroughput (node page)')
    console.log(
      `  SSR     ${ssr.requestsPerSecond} req/s (p50 ${ssr.latencyP50Ms} ms, p99 ${ssr.latencyP99Ms} ms, errors ${ssr.errors}, non-2xx ${ssr.non2xx})`,
    )
    console.log(
      `  static  ${staticFile.requestsPerSecond} req/s (p50 ${staticFile.latencyP50Ms} ms, p99 ${staticFile.latencyP99Ms} ms, errors ${staticFile.errors}, non-2xx ${staticFile.non2xx})`,
    )
    console.log(`  ratio   ${ratio}`)

    const all = Object.values(pages)
    const checks = [
      [
        `performance ≥ ${TARGETS.performance} in every run (lowest)`,
        all.every((page) =>
          (page.performanceRuns ?? [page.performance]).every(
            (score) => score >= TARGETS.performance,
          ),
        ),
        all.map((page) => Math.min(...(page.performanceRuns ?? [page.performance]))).join(' / '),
      ],
      [
        `LCP ≤ ${TARGETS.lcpMs} ms in every run`,
        all.every((page) => (page.lcpRuns ?? [page.lcpMs]).every((lcp) => lcp <= TARGETS.lcpMs)),
        all.map((page) => Math.max(...(page.lcpRuns ?? [page.lcpMs]))).join(' / '),
      ],
      [
        `accessibility = ${TARGETS.accessibility}`,
        all.every((page) => page.accessibility >= TARGETS.accessibility),
        all.map((page) => page.accessibility).join(' / '),
      ],
      [
        `SEO = ${TARGETS.seo}`,
        all.every((page) => page.seo >= TARGETS.seo),
        all.map((page) => page.seo).join(' / '),
      ],
      [
        `node-page first-load JS ≤ ${TARGETS.nodePageFirstLoadJsKb} kB gz`,
        nodePage.firstLoadJsKbGzip <= TARGETS.nodePageFirstLoadJsKb,
        `${nodePage.firstLoadJsKbGzip} kB (all JS during load ${nodePage.allJsKbGzip} kB)`,
      ],
      [
        `our own first-load JS ≤ ${TARGETS.ownJsKb} kB gz`,
        names.every((name) => ownJsKb(name) <= TARGETS.ownJsKb),
        names.map((name) => `${ownJsKb(name)} kB`).join(' / '),
      ],
      [
        `node-page server HTML ≤ ${TARGETS.nodePageHtmlKb} kB`,
        Math.max(nodeHtml.rawKb, biggestNodeHtml.rawKb) <= TARGETS.nodePageHtmlKb,
        `${nodeHtml.rawKb} kB (biggest of 100: ${biggestNodeHtml.rawKb} kB)`,
      ],
      [
        `home-page server HTML ≤ ${TARGETS.homePageHtmlKb} kB`,
        homeHtml.rawKb <= TARGETS.homePageHtmlKb,
        `${homeHtml.rawKb} kB (gzip ${homeHtml.gzipKb} kB)`,
      ],
      [
        `node-page mobile TBT ≤ ${TARGETS.nodePageTbtMs} ms`,
        nodePage.tbtMs <= TARGETS.nodePageTbtMs,
        `${nodePage.tbtMs} ms (benchmarkIndex ${nodePage.benchmarkIndex})`,
      ],
      [
        `preflights on a repeat visit = ${TARGETS.preflightsOnRepeatVisit}`,
        preflight.repeatVisit <= TARGETS.preflightsOnRepeatVisit,
        `${preflight.repeatVisit} (first visit ${preflight.firstVisit})`,
      ],
      [
        'home and node pages from the page cache',
        Object.values(firstByte).every((byte) => byte.cache === 'HIT'),
        Object.values(firstByte)
          .map((byte) => `${byte.cache} ${byte.medianMs} ms`)
          .join(' / '),
      ],
      [`SSR/static ≥ ${TARGETS.ssrToStaticRatio}`, ratio >= TARGETS.ssrToStaticRatio, `${ratio}`],
    ] as const
    console.log('\nTargets (home / node / publisher)')
    for (const [name, ok, value] of checks) console.log(`  ${mark(ok)} ${name.padEnd(38)} ${value}`)

    const outDir = path.join(root, 'bench-results')
    fs.mkdirSync(outDir, { recursive: true })
    fs.writeFileSync(
      path.join(outDir, 'web.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          chromium: CHROMIUM_PATH,
          lighthouse: { profile: 'mobile, simulated throttling (Lighthouse default)', pages },
          html: {
            home: homeHtml,
            node: nodeHtml,
            biggestNode: biggestNodeHtml,
            publisher: publisherHtml,
          },
          fixedStackFloorKb: FIXED_STACK_FLOOR_KB,
          firstByte,
          preflight,
          throughput: {
            connections: CONNECTIONS,
            seconds: SECONDS,
            ssr,
            static: staticFile,
            ratio,
          },
          targets: TARGETS,
          met: Object.fromEntries(checks.map(([name, ok]) => [name, ok])),
        },
        null,
        2,
      ) + '\n',
    )
    console.log('\nWrote bench-results/web.json')
  } finally {
    cleanUp()
    console.log('Stopping the stack…')
    await stopStack(stack)
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
