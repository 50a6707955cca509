// Languages on the client (seed section 1): detected from the page's language tag only, kept as a
// stored preference (Next's NEXT_LOCALE cookie, mirrored in local storage), and switched by
// replacing the current address with the new locale, keeping path, query and hash.
import type { NextRouter } from 'next/router'
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE_S,
  LANGUAGE_STORAGE_KEY,
  LANGUAGES,
} from './constants'

export type LanguageCode = (typeof LANGUAGES)[number]['code']

export function isLanguage(code: string | undefined | null): code is LanguageCode {
  return LANGUAGES.some((language) => language.code === code)
}

/** The supported language of a tag such as `ja` or `zh-CN`, else the default. */
export function languageOfTag(tag: string | undefined | null): LanguageCode {
  const base = (tag ?? '').toLowerCase().split('-')[0]
  return isLanguage(base) ? base : DEFAULT_LANGUAGE
}

/** The page's language, from `<html lang>` only (never the browser's languages). */
export function detectPageLanguage(doc: Document = document): LanguageCode {
  return languageOfTag(doc.documentElement.lang)
}

/**
 * Keeps `<html lang>` at the page's locale after a client-side locale change. Written only when it
 * differs: Chromium restyles every element of the page on any write of `lang`, the same value
 * too (its `:lang()` state), a 126–233 ms task with 4x CPU on the node page after hydration
 * (docs/ARCHITECTURE.md "Blocking time").
 */
export function keepPageLanguage(locale: string, doc: Document = document): void {
  if (doc.documentElement.lang !== locale) doc.documentElement.lang = locale
}

/** Stores the choice: a cookie that server rendering reads, and local storage. */
export function storeLanguagePreference(code: LanguageCode): void {
  document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_S}; samesite=lax`
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code)
  } catch {
    // Storage unavailable: the cookie still holds the choice.
  }
}

export function readLanguagePreference(): LanguageCode | undefined {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY)
    return isLanguage(stored) ? stored : undefined
  } catch {
    return undefined
  }
}

/** The current address without its locale prefix, with its hash (which the router omits). */
export function currentAddress(router: Pick<NextRouter, 'asPath'>): string {
  const hash = typeof window === 'undefined' ? '' : window.location.hash
  return router.asPath.includes('#') || !hash ? router.asPath : `${router.asPath}${hash}`
}

/** Switches language in place: same page, query and hash, new locale; remembers the choice. */
export async function switchLanguage(
  router: Pick<NextRouter, 'pathname' | 'query' | 'asPath' | 'replace'>,
  code: LanguageCode,
): Promise<boolean> {
  storeLanguagePreference(code)
  return router.replace(
    { pathname: router.pathname, query: router.query },
    currentAddress(router),
    {
      locale: code,
    },
  )
}
