// Sections of `common` that public pages leave out of their HTML (ON_DEMAND_TRANSLATION_SECTIONS)
// arrive here when a signed-in visitor needs them: the locale's common.json, served from
// public/locales, is fetched once and the missing sections are added to i18next.
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useState } from 'react'

type Resources = Record<string, unknown>

const loads = new Map<string, Promise<Resources>>()

function fetchCommon(language: string): Promise<Resources> {
  let load = loads.get(language)
  if (!load) {
    load = fetch(`/locales/${language}/common.json`).then((response) => {
      if (!response.ok) throw new Error(`Translations for ${language}: HTTP ${response.status}`)
      return response.json() as Promise<Resources>
    })
    // A failed load may be tried again by the next component that needs it.
    load.catch(() => loads.delete(language))
    loads.set(language, load)
  }
  return load
}

/** True once every one of `sections` is in the current language's `common` namespace. */
export function useTranslationSections(sections: readonly string[]): boolean {
  const { i18n } = useTranslation('common')
  const language = i18n.language
  const missing = sections.filter(
    (section) => i18n.getResource(language, 'common', section) === undefined,
  )
  const key = missing.join(',')
  const [loaded, setLoaded] = useState('')

  useEffect(() => {
    if (!key) return
    let cancelled = false
    fetchCommon(language)
      .then((common) => {
        const added = Object.fromEntries(
          key.split(',').map((section) => [section, common[section]]),
        )
        i18n.addResourceBundle(language, 'common', added, true, false)
        if (!cancelled) setLoaded(`${language}:${key}`)
      })
      .catch(() => {
        // Without the texts the controls stay hidden; the public page itself is unaffected.
      })
    return () => {
      cancelled = true
    }
  }, [i18n, language, key])

  return !key || loaded === `${language}:${key}`
}
