// The page's scripts as data (pages/_document.tsx) and the inline loader that appends them after
// the first contentful paint (security-headers.config.js): same order, run in order, none before.
// With them it fetches Inter, which a later page of the tab uses from its first paint (FONT_CLASS).
import {
  FONT_CLASS,
  FONT_FAMILY,
  FONT_STORAGE_KEY,
  SCRIPT_LIST_ELEMENT_ID,
  SCRIPT_LOADER,
} from '@/security-headers.config'
import { listedScripts, scriptListJson, type ListedScript } from '@/src/lib/script-list'

const LIST: ListedScript[] = [
  { src: '/_next/static/chunks/polyfills.js', noModule: true },
  { src: '/_next/static/chunks/webpack.js' },
  { src: '/_next/static/chunks/framework.js', crossOrigin: 'anonymous' },
  { src: '/_next/static/chunks/main.js' },
  { src: '/_next/static/chunks/pages/_app.js' },
]

describe('the list of the page scripts', () => {
  it('keeps the external scripts in their order with what the loader needs, and nothing else', () => {
    const elements = [
      <script key="p" src={LIST[0].src} noModule defer nonce="n" />,
      null,
      <script key="i" dangerouslySetInnerHTML={{ __html: 'inline()' }} />,
      <script key="w" src={LIST[1].src} defer />,
      <link key="l" rel="preload" href="/x.js" as="script" />,
      <script key="f" src={LIST[2].src} defer crossOrigin="anonymous" />,
      <script key="m" src={LIST[3].src} defer />,
      <script key="a" src={LIST[4].src} defer />,
    ]
    expect(listedScripts(elements)).toEqual(LIST)
  })

  it('is JSON no address can break out of', () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      `<script id="t" type="application/json">${scriptListJson([{ src: '/a</script><b>' }])}</script>`,
    )
    expect(document.querySelector('b')).toBeNull()
    expect(JSON.parse(document.getElementById('t')?.textContent ?? '')).toEqual([
      { src: '/a</script><b>' },
    ])
    document.getElementById('t')?.remove()
  })
})

describe('the script loader', () => {
  let frames: FrameRequestCallback[] = []
  let hidden = false
  let paintObservers: ((names: string[]) => void)[] = []

  /** Paint timing as a browser reports it: buffered entries, one callback per paint. */
  class FakeObserver {
    static supportedEntryTypes = ['paint']
    constructor(
      private callback: (
        list: { getEntriesByName(name: string): unknown[] },
        observer: FakeObserver,
      ) => void,
    ) {}
    observe({ type }: { type: string }) {
      if (type !== 'paint') return
      paintObservers.push((names) =>
        this.callback(
          { getEntriesByName: (name) => names.filter((entry) => entry === name) },
          this,
        ),
      )
    }
    disconnect() {
      paintObservers = []
    }
  }

  beforeEach(() => {
    jest.useFakeTimers()
    frames = []
    hidden = false
    paintObservers = []
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      frames.push(callback)
      return frames.length
    })
    jest.spyOn(document, 'hidden', 'get').mockImplementation(() => hidden)
    document.head.insertAdjacentHTML(
      'beforeend',
      `<script id="${SCRIPT_LIST_ELEMENT_ID}" type="application/json">${scriptListJson(LIST)}</script>`,
    )
  })

  afterEach(() => {
    jest.restoreAllMocks()
    jest.useRealTimers()
    delete (window as { PerformanceObserver?: unknown }).PerformanceObserver
    delete (document as { fonts?: unknown }).fonts
    document.head.innerHTML = ''
    document.documentElement.classList.remove(FONT_CLASS)
    sessionStorage.clear()
  })

  const run = () => {
    const script = document.createElement('script')
    script.textContent = SCRIPT_LOADER
    // jsdom runs inline scripts it is given; the listed ones it never fetches.
    document.head.appendChild(script)
  }
  const appended = () =>
    [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => ({
      src: script.getAttribute('src'),
      async: script.async,
      noModule: script.noModule === true,
      crossOrigin: script.crossOrigin,
    }))
  const inOrder = LIST.map((script) => ({
    src: script.src,
    async: false,
    noModule: script.noModule === true,
    crossOrigin: script.crossOrigin ?? null,
  }))

  it('appends the scripts in order, to run in order, once the first contentful paint is reported', () => {
    Object.assign(window, { PerformanceObserver: FakeObserver })
    run()
    expect(paintObservers).toHaveLength(1)
    paintObservers[0](['first-paint'])
    jest.runAllTimers()
    expect(appended()).toEqual([])
    paintObservers[0](['first-contentful-paint'])
    expect(appended()).toEqual([])
    jest.runAllTimers()
    expect(appended()).toEqual(inOrder)
    expect(paintObservers).toEqual([])
  })

  it('appends one script a task, so that the appends make no long task', () => {
    Object.assign(window, { PerformanceObserver: FakeObserver })
    run()
    paintObservers[0](['first-contentful-paint'])
    for (let count = 1; count <= LIST.length; count++) {
      jest.advanceTimersToNextTimer()
      expect(appended()).toEqual(inOrder.slice(0, count))
    }
    jest.runAllTimers()
    expect(appended()).toEqual(inOrder)
  })

  it('without paint timing, appends them two frames after the load event', () => {
    run()
    jest.runAllTimers()
    expect(appended()).toEqual([])
    window.dispatchEvent(new Event('load'))
    frames.splice(0).forEach((callback) => callback(0))
    frames.splice(0).forEach((callback) => callback(0))
    expect(appended()).toEqual([])
    jest.runAllTimers()
    expect(appended()).toEqual(inOrder)
  })

  it('fetches Inter with the scripts without applying it, and notes once it has loaded', async () => {
    const load = jest.fn(() => Promise.resolve([{}]))
    Object.defineProperty(document, 'fonts', { value: { load }, configurable: true })
    Object.assign(window, { PerformanceObserver: FakeObserver })
    run()
    expect(load).not.toHaveBeenCalled()
    paintObservers[0](['first-contentful-paint'])
    jest.runAllTimers()
    expect(load).toHaveBeenCalledWith(`1em ${FONT_FAMILY}`)
    // Not applied to this page: it would be laid out again.
    expect(document.documentElement.classList.contains(FONT_CLASS)).toBe(false)
    await Promise.resolve()
    expect(sessionStorage.getItem(FONT_STORAGE_KEY)).toBe('1')
  })

  it('does not note a font that did not load, and works without the font loading API', async () => {
    const load = jest.fn(() => Promise.resolve([]))
    Object.defineProperty(document, 'fonts', { value: { load }, configurable: true })
    hidden = true
    run()
    await Promise.resolve()
    expect(load).toHaveBeenCalled()
    expect(sessionStorage.getItem(FONT_STORAGE_KEY)).toBeNull()
    delete (document as { fonts?: unknown }).fonts
    run()
    expect(appended()).toHaveLength(LIST.length * 2)
    expect(document.documentElement.classList.contains(FONT_CLASS)).toBe(false)
  })

  it('sets a later page of the tab in Inter before its first paint', () => {
    sessionStorage.setItem(FONT_STORAGE_KEY, '1')
    Object.assign(window, { PerformanceObserver: FakeObserver })
    run()
    expect(document.documentElement.classList.contains(FONT_CLASS)).toBe(true)
    expect(appended()).toEqual([])
    paintObservers[0](['first-contentful-paint'])
    jest.runAllTimers()
    expect(appended()).toEqual(inOrder)
  })

  it('appends them at once in a hidden tab, which paints nothing, and only once', () => {
    hidden = true
    run()
    expect(appended().map((script) => script.src)).toEqual(LIST.map((script) => script.src))
    document.dispatchEvent(new Event('visibilitychange'))
    expect(appended()).toHaveLength(LIST.length)
  })
})
