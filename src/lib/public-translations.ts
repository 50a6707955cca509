// Translations of public pages: the `common` namespace without the sections only signed-in
// visitors see (ON_DEMAND_TRANSLATION_SECTIONS), which would otherwise make up a third of every
// public page's HTML. See useTranslationSections for how they arrive when needed.
// Sections only a few public pages use (PAGE_TRANSLATION_SECTIONS) are left out of every other
// page's HTML as well; those pages ask for theirs, and a page reached client-side brings them
// (src/lib/page-translations.tsx).
import type { SSRConfig } from 'next-i18next/pages'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE, ON_DEMAND_TRANSLATION_SECTIONS } from './constants'

/** Sections of `common` used by their own public pages only: `ci` by /ci and /ci/[commit]. */
export const PAGE_TRANSLATION_SECTIONS = ['ci'] as const
export type PageTranslationSection = (typeof PAGE_TRANSLATION_SECTIONS)[number]

function withoutSections(config: SSRConfig, sections: readonly string[]): SSRConfig {
  const store = config._nextI18Next?.initialI18nStore as
    Record<string, Record<string, Record<string, unknown>>> | undefined
  if (!config._nextI18Next || !store) return config
  const pruned = Object.fromEntries(
    Object.entries(store).map(([language, namespaces]) => [
      language,
      Object.fromEntries(
        Object.entries(namespaces).map(([namespace, resources]) => [
          namespace,
          Object.fromEntries(
            Object.entries(resources).filter(([section]) => !sections.includes(section)),
          ),
        ]),
      ),
    ]),
  )
  return { _nextI18Next: { ...config._nextI18Next, initialI18nStore: pruned } }
}

export function withoutOnDemandSections(config: SSRConfig): SSRConfig {
  return withoutSections(config, ON_DEMAND_TRANSLATION_SECTIONS)
}

/** The public translations, with the page's own sections among PAGE_TRANSLATION_SECTIONS. */
export async function publicTranslations(
  locale: string | undefined,
  pageSections: readonly PageTranslationSection[] = [],
): Promise<SSRConfig> {
  const config = await serverSideTranslations(
    locale ?? DEFAULT_LANGUAGE,
    ['common'],
    nextI18nextConfig,
  )
  return withoutSections(config, [
    ...ON_DEMAND_TRANSLATION_SECTIONS,
    ...PAGE_TRANSLATION_SECTIONS.filter((section) => !pageSections.includes(section)),
  ])
}
