import { render, screen, waitFor } from '@testing-library/react'
import { I18nextProvider, useTranslation } from 'react-i18next'
import { createInstance } from 'i18next'
import { withoutOnDemandSections } from '@/src/lib/public-translations'
import { useTranslationSections } from '@/src/lib/translation-sections'
import { ON_DEMAND_TRANSLATION_SECTIONS } from '@/src/lib/constants'
import { loadLocale } from '../test-utils'

describe('public pages leave the signed-in texts out of their HTML', () => {
  it('drops exactly the on-demand sections, in every language of the store', () => {
    const en = loadLocale('en')
    const ja = loadLocale('ja')
    const pruned = withoutOnDemandSections({
      _nextI18Next: {
        initialI18nStore: { en: { common: en }, ja: { common: ja } },
        initialLocale: 'ja',
        ns: ['common'],
        userConfig: null,
      },
    })
    const store = pruned._nextI18Next?.initialI18nStore as Record<
      string,
      { common: Record<string, unknown> }
    >
    expect(ON_DEMAND_TRANSLATION_SECTIONS).toEqual(['auth', 'manage', 'admin', 'account'])
    for (const language of ['en', 'ja']) {
      const sections = Object.keys(store[language].common)
      expect(sections).not.toContain('auth')
      expect(sections).not.toContain('manage')
      expect(sections).not.toContain('admin')
      expect(sections).not.toContain('account')
      expect(sections).toEqual(
        Object.keys(loadLocale(language)).filter(
          (section) => !['auth', 'manage', 'admin', 'account'].includes(section),
        ),
      )
    }
  })
})

function Needs({ sections }: { sections: string[] }) {
  const ready = useTranslationSections(sections)
  const { t } = useTranslation('common')
  return <p>{ready ? t('manage.tokens.create') : 'waiting'}</p>
}

describe('useTranslationSections', () => {
  it('fetches the locale file once and adds the missing sections', async () => {
    const { manage: _manage, auth: _auth, ...publicTexts } = loadLocale('fr')
    const i18n = createInstance()
    await i18n.init({
      lng: 'fr',
      ns: ['common'],
      defaultNS: 'common',
      resources: { fr: { common: publicTexts } },
      initAsync: false,
    })
    const fetchMock = jest.fn(() =>
      Promise.resolve({ ok: true, json: () => Promise.resolve(loadLocale('fr')) } as Response),
    )
    global.fetch = fetchMock as unknown as typeof fetch
    render(
      <I18nextProvider i18n={i18n}>
        <Needs sections={['manage']} />
        <Needs sections={['manage']} />
      </I18nextProvider>,
    )
    expect(screen.getAllByText('waiting')).toHaveLength(2)
    await waitFor(() => expect(screen.getAllByText('Créer un jeton')).toHaveLength(2))
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchMock).toHaveBeenCalledWith('/locales/fr/common.json')
  })

  it('is ready at once when the sections are there (signed-in pages)', () => {
    const i18n = createInstance()
    void i18n.init({
      lng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      resources: { en: { common: loadLocale('en') } },
      initAsync: false,
    })
    render(
      <I18nextProvider i18n={i18n}>
        <Needs sections={['manage']} />
      </I18nextProvider>,
    )
    expect(screen.getByText('Create token')).toBeInTheDocument()
  })
})
