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
  // Pages only: not the API routes, Next's assets or files such as /robots.txt and /icons/x.svg.
  matcher: ['/', '/((?!api/|_next/|.*\\.[a-z0-9]+$).+)'],
}
