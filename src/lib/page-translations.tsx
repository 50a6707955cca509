// The translations a page arrives with, added to the live i18next instance before it renders.
// next-i18next adds a page's resources only for namespaces the instance does not have yet, so
// after a public page (whose `common` leaves out the signed-in sections, see
// public-translations.ts) a client-side move to a signed-in page kept showing raw keys such as
// `auth.signup.title`. Here every section the page brings and the instance lacks is added.
import type { i18n as I18n } from 'i18next'
import type { AppProps } from 'next/app'
import { useTranslation } from 'next-i18next/pages'
import type { ComponentType } from 'react'

type Store = Record<string, Record<string, Record<string, unknown>>>

function isStore(value: unknown): value is Store {
  return typeof value === 'object' && value !== null
}

/** Adds the sections of `store` that `i18n` lacks (existing texts are left as they are). */
export function addMissingSections(i18n: I18n, store: unknown): void {
  if (!isStore(store)) return
  for (const [language, namespaces] of Object.entries(store)) {
    for (const [namespace, resources] of Object.entries(namespaces ?? {})) {
      // A section may have arrived in part (the home page keeps one deprecation text).
      const missing = Object.entries(resources ?? {}).some(([section, texts]) => {
        const have: unknown = i18n.getResource(language, namespace, section)
        if (have === undefined) return true
        if (!isStore(texts) || !isStore(have)) return false
        return Object.keys(texts).some((key) => !(key in have))
      })
      if (missing) i18n.addResourceBundle(language, namespace, resources, true, false)
    }
  }
}

/** The page's `_nextI18Next.initialI18nStore` (serverSideTranslations), if it has one. */
function pageStore(pageProps: object): unknown {
  const config = '_nextI18Next' in pageProps ? pageProps._nextI18Next : undefined
  return typeof config === 'object' && config !== null && 'initialI18nStore' in config
    ? config.initialI18nStore
    : undefined
}

/** Wraps the app (inside appWithTranslation) so each page's translations are complete. */
export function withPageTranslations<PageProps extends object>(
  App: ComponentType<AppProps<PageProps>>,
): ComponentType<AppProps<PageProps>> {
  function WithPageTranslations(props: AppProps<PageProps>) {
    const { i18n } = useTranslation()
    addMissingSections(i18n, pageStore(props.pageProps))
    return <App {...props} />
  }
  return WithPageTranslations
}
