// Server side of the stored language preference: an address without a language prefix is sent
// to the language the visitor chose before (the picker stores it in the NEXT_LOCALE cookie).
// Only the cookie counts: no Accept-Language guessing (the language comes from the page's tag).
import { NextResponse, type NextRequest } from 'next/server'
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES } from '@/src/lib/constants'

const SUPPORTED = new Set<string>(LANGUAGES.map((language) => language.code))

export function proxy(request: NextRequest) {
  const preferred = request.cookies.get(LANGUAGE_COOKIE)?.value
  const { nextUrl } = request
  if (!preferred || !SUPPORTED.has(preferred) || preferred === DEFAULT_LANGUAGE) return
  // Addresses in another language are left alone; the picker updates the cookie when used.
  if (nextUrl.locale !== DEFAULT_LANGUAGE) return
  const url = nextUrl.clone()
  url.locale = preferred
  return NextResponse.redirect(url)
}

export const config = {
  // Pages only (not the API routes, Next's assets or files such as /robots.txt and /icons/x.svg),
  // and only for visitors who chose a language: everyone else skips the proxy, so cached pages
  // are served without running it. The cookie name is LANGUAGE_COOKIE (a literal here, because
  // Next reads this config without running the module).
  matcher: [
    { source: '/', has: [{ type: 'cookie', key: 'NEXT_LOCALE' }] },
    {
      source: '/((?!api/|_next/|.*\\.[a-z0-9]+$).+)',
      has: [{ type: 'cookie', key: 'NEXT_LOCALE' }],
    },
  ],
}
