// A client-side move from a public page (its `common` without the signed-in sections) to a
// signed-in page must show that page's texts, not raw keys: next-i18next keeps one i18next
// instance and, on its own, adds a page's resources only for namespaces it does not have yet.
import { render, screen } from '@testing-library/react'
import type { AppProps } from 'next/app'
import type { Router } from 'next/router'
import { appWithTranslation, useTranslation, type SSRConfig } from 'next-i18next/pages'
import nextI18nextConfig from '@/next-i18next.config'
import { withPageTranslations } from '@/src/lib/page-translations'
import { withoutListingSections, withoutOnDemandSections } from '@/src/lib/public-translations'
import { loadLocale } from '../test-utils'

function pageTranslations(locale: string, pruned: boolean): SSRConfig {
  const config: SSRConfig = {
    _nextI18Next: {
      initialI18nStore: { [locale]: { common: loadLocale(locale) } },
      initialLocale: locale,
      ns: ['common'],
      userConfig: null,
    },
  }
  return pruned ? withoutOnDemandSections(config) : config
}

function SignupTitle() {
  const { t } = useTranslation('common')
  return <h1>{t('auth.signup.title')}</h1>
}

function TestApp({ Component, pageProps }: AppProps<SSRConfig>) {
  return <Component {...pageProps} />
}

function props(locale: string, pruned: boolean): AppProps<SSRConfig> {
  return {
    Component: SignupTitle,
    pageProps: pageTranslations(locale, pruned),
    router: { locale } as unknown as Router,
  }
}

describe.each(['en', 'ja'])('moving from a public page to sign-up (%s)', (locale) => {
  const expected = (loadLocale(locale).auth as { signup: { title: string } }).signup.title

  it('shows the sign-up title, not its key', () => {
    const App = appWithTranslation(withPageTranslations(TestApp), nextI18nextConfig)
    const { rerender } = render(<App {...props(locale, true)} />)
    // On the public page the section is absent (as in its HTML)...
    expect(screen.getByRole('heading')).toHaveTextContent('auth.signup.title')
    // ...and the signed-in page brings it.
    rerender(<App {...props(locale, false)} />)
    expect(screen.getByRole('heading')).toHaveTextContent(expected)
  })

  it('without the fix, next-i18next alone keeps the raw key', () => {
    const App = appWithTranslation(TestApp, nextI18nextConfig)
    const { rerender } = render(<App {...props(locale, true)} />)
    rerender(<App {...props(locale, false)} />)
    expect(screen.getByRole('heading')).toHaveTextContent('auth.signup.title')
  })
})

describe('moving from the home page to a node page', () => {
  const common = loadLocale('en') as {
    deprecation: { badge: string; node: { title: string } }
    node: { details: string }
  }

  function NodeTexts() {
    const { t } = useTranslation('common')
    return (
      <>
        <p>{t('deprecation.badge')}</p>
        <h1>{t('deprecation.node.title')}</h1>
        <h2>{t('node.details')}</h2>
      </>
    )
  }

  const page = (config: SSRConfig): AppProps<SSRConfig> => ({
    Component: NodeTexts,
    pageProps: config,
    router: { locale: 'en' } as unknown as Router,
  })

  it("the listing keeps only the cards' deprecation badge; the node page brings the rest", () => {
    const App = appWithTranslation(withPageTranslations(TestApp), nextI18nextConfig)
    const home = withoutListingSections(pageTranslations('en', false))
    const { rerender } = render(<App {...page(home)} />)
    expect(screen.getByText(common.deprecation.badge)).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('deprecation.node.title')
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('node.details')
    rerender(<App {...page(pageTranslations('en', true))} />)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      common.deprecation.node.title,
    )
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(common.node.details)
  })
})
