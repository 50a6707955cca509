/**
 * @jest-environment node
 */
// The website's proxy (proxy.ts): listing addresses are served from the cached path of their
// canonical query, a malformed page number is corrected first, the stored language still wins,
// and its matcher names exactly the listing's address keys.
import { NextRequest } from 'next/server'
import { config, proxy } from '@/proxy'
import { LISTING_QUERY_KEYS } from '@/src/lib/listing-address'
import { LANGUAGE_COOKIE } from '@/src/lib/constants'
import nextI18nextConfig from '@/next-i18next.config'

function run(address: string, cookie?: string, data = false) {
  const headers: Record<string, string> = {}
  if (cookie) headers.cookie = cookie
  if (data) headers['x-nextjs-data'] = '1'
  const request = new NextRequest(new URL(address, 'http://site.test'), {
    headers,
    nextConfig: { i18n: nextI18nextConfig.i18n },
  })
  const response = proxy(request)
  return {
    rewrite: response?.headers.get('x-middleware-rewrite')?.replace('http://site.test', ''),
    redirect: response?.headers.get('location')?.replace('http://site.test', ''),
  }
}

describe('listing addresses', () => {
  it('serves a search from the cached path of its query, in its language', () => {
    expect(run('/?q=upscale').rewrite).toBe('/_listing/q%3Dupscale')
    expect(run('/fr?q=upscale').rewrite).toBe('/fr/_listing/q%3Dupscale')
    expect(run('/?q=upscale&tags=video&page=2').rewrite).toBe(
      `/_listing/${encodeURIComponent('q=upscale&tags=video&page=2')}`,
    )
  })

  it('gives equal searches one path, whatever the order, case or unknown keys', () => {
    const one = run('/?q=upscale&tags=video&tags=mask&os=linux').rewrite
    expect(run('/?os=LINUX&tags=mask&utm_source=x&tags=video&q=%20upscale%20').rewrite).toBe(one)
    // Invalid values are dropped, as the page itself would: the plain listing.
    expect(run('/?sort=bogus&os=amiga').rewrite).toBe('/')
  })

  it('corrects a malformed page number before rendering', () => {
    expect(run('/?page=abc').redirect).toBe('/')
    expect(run('/?q=upscale&page=0').redirect).toBe('/?q=upscale')
    expect(run('/fr?page=2&page=3').redirect).toBe('/fr?page=2')
    expect(run('/?page=2').redirect).toBeUndefined()
  })

  it("leaves the router's data requests to the plain listing", () => {
    expect(run('/?q=upscale', undefined, true)).toEqual({ rewrite: undefined, redirect: undefined })
  })

  it('leaves other addresses alone', () => {
    expect(run('/')).toEqual({ rewrite: undefined, redirect: undefined })
    expect(run('/?utm_source=x')).toEqual({ rewrite: undefined, redirect: undefined })
    expect(run('/nodes/demo?q=upscale')).toEqual({ rewrite: undefined, redirect: undefined })
  })

  it('runs for the home page with any listing key, and only those', () => {
    const keys = config.matcher.flatMap((entry) =>
      entry.source === '/'
        ? entry.has.filter((has) => has.type === 'query').map((has) => has.key)
        : [],
    )
    expect(keys).toEqual([...LISTING_QUERY_KEYS])
  })
})

describe('the stored language', () => {
  it('sends an address without a language to the chosen one, listing keys kept', () => {
    expect(run('/?q=upscale', `${LANGUAGE_COOKIE}=ja`).redirect).toBe('/ja?q=upscale')
    expect(run('/nodes/demo', `${LANGUAGE_COOKIE}=fr`).redirect).toBe('/fr/nodes/demo')
  })

  it('leaves addresses in another language, and unknown or default choices, alone', () => {
    expect(run('/ko/nodes/demo', `${LANGUAGE_COOKIE}=ja`).redirect).toBeUndefined()
    expect(run('/nodes/demo', `${LANGUAGE_COOKIE}=xx`).redirect).toBeUndefined()
    expect(run('/nodes/demo', `${LANGUAGE_COOKIE}=en`).redirect).toBeUndefined()
  })

  it('is asked by the matcher only for visitors with the cookie', () => {
    const cookieEntries = config.matcher.filter((entry) =>
      entry.has.some((has) => has.type === 'cookie'),
    )
    expect(cookieEntries.map((entry) => entry.has[0].key)).toEqual([
      LANGUAGE_COOKIE,
      LANGUAGE_COOKIE,
    ])
  })
})
