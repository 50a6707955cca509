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

/** Keys kept of a section otherwise left out (a page that needs only these of it). */
type KeptKeys = Readonly<Record<string, readonly string[]>>

function withoutSections(
  config: SSRConfig,
  sections: readonly string[],
  keep: KeptKeys = {},
): SSRConfig {
  const store = config._nextI18Next?.initialI18nStore as
    Record<string, Record<string, Record<string, unknown>>> | undefined
  if (!config._nextI18Next || !store) return config
  const kept = (section: string, value: unknown) => {
    const keys = keep[section]
    if (!keys || typeof value !== 'object' || value === null) return []
    const part = Object.entries(value).filter(([key]) => keys.includes(key))
    return [[section, Object.fromEntries(part)] as const]
  }
  const pruned = Object.fromEntries(
    Object.entries(store).map(([language, namespaces]) => [
      language,
      Object.fromEntries(
        Object.entries(namespaces).map(([namespace, resources]) => [
          namespace,
          Object.fromEntries(
            Object.entries(resources).flatMap(([section, value]) =>
              sections.includes(section) ? kept(section, value) : [[section, value] as const],
            ),
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

/**
 * Sections the home page's listing never shows, left out of its HTML (a third of its
 * translations): the node and publisher pages' own, the error pages', and of the deprecation
 * texts all but the cards' badge. A page reached client-side brings its own (page-translations.tsx).
 */
export const LISTING_LEAVES_OUT = {
  sections: ['node', 'publisher', 'notFound', 'errorPage', 'deprecation'],
  keep: { deprecation: ['badge'] },
} as const

/** `config` as the home page's listing has it (LISTING_LEAVES_OUT). */
export function withoutListingSections(config: SSRConfig): SSRConfig {
  return withoutSections(
    withoutOnDemandSections(config),
    LISTING_LEAVES_OUT.sections,
    LISTING_LEAVES_OUT.keep,
  )
}

/** The public translations, with the page's own sections among PAGE_TRANSLATION_SECTIONS. */
export async function publicTranslations(
  locale: string | undefined,
  pageSections: readonly PageTranslationSection[] = [],
  leaveOut: { sections: readonly string[]; keep?: KeptKeys } = { sections: [] },
): Promise<SSRConfig> {
  const config = await serverSideTranslations(
    locale ?? DEFAULT_LANGUAGE,
    ['common'],
    nextI18nextConfig,
  )
  return withoutSections(
    config,
    [
      ...ON_DEMAND_TRANSLATION_SECTIONS,
      ...PAGE_TRANSLATION_SECTIONS.filter((section) => !pageSections.includes(section)),
      ...leaveOut.sections,
    ],
    leaveOut.keep,
  )
}
