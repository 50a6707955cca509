// Translations of public pages: the `common` namespace without the sections only signed-in
// visitors see (ON_DEMAND_TRANSLATION_SECTIONS), which would otherwise make up a third of every
// public page's HTML. See useTranslationSections for how they arrive when needed.
import type { SSRConfig } from 'next-i18next/pages'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE, ON_DEMAND_TRANSLATION_SECTIONS } from './constants'

export function withoutOnDemandSections(config: SSRConfig): SSRConfig {
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
            Object.entries(resources).filter(
              ([section]) =>
                !(ON_DEMAND_TRANSLATION_SECTIONS as readonly string[]).includes(section),
            ),
          ),
        ]),
      ),
    ]),
  )
  return { _nextI18Next: { ...config._nextI18Next, initialI18nStore: pruned } }
}

export async function publicTranslations(locale: string | undefined): Promise<SSRConfig> {
  return withoutOnDemandSections(
    await serverSideTranslations(locale ?? DEFAULT_LANGUAGE, ['common'], nextI18nextConfig),
  )
}
