// Shared test helpers: render a component with a real i18next instance (the locale's real
// common.json), a React Query client, a Next router and, optionally, a signed-in user.
import fs from 'node:fs'
import path from 'node:path'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, type RenderOptions } from '@testing-library/react'
import { createInstance, type i18n as I18n } from 'i18next'
import type { NextRouter } from 'next/router'
import { RouterContext } from 'next/dist/shared/lib/router-context.shared-runtime'
import type { ReactElement, ReactNode } from 'react'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { AuthContext, type AuthState } from '@/src/lib/auth'
import { DEFAULT_LANGUAGE, LANGUAGES } from '@/src/lib/constants'

/** The real translations of one locale, read from public/locales. */
export function loadLocale(locale: string): Record<string, unknown> {
  const file = path.join(__dirname, '..', 'public', 'locales', locale, 'common.json')
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
}

export function makeTestI18n(locale: string = DEFAULT_LANGUAGE): I18n {
  const instance = createInstance()
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LANGUAGE,
    defaultNS: 'common',
    ns: ['common'],
    resources: {
      [DEFAULT_LANGUAGE]: { common: loadLocale(DEFAULT_LANGUAGE) },
      [locale]: { common: loadLocale(locale) },
    },
    interpolation: { escapeValue: false },
    initAsync: false,
  })
  return instance
}

/** A test query client: no retries (failures show at once); seeded data stays fresh. */
export function makeTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity } },
  })
}

/** A Next router for tests; navigation methods are jest mocks. */
export function makeTestRouter(overrides: Partial<NextRouter> = {}): NextRouter {
  const locale = overrides.locale ?? DEFAULT_LANGUAGE
  return {
    basePath: '',
    pathname: '/',
    route: '/',
    asPath: '/',
    query: {},
    isReady: true,
    isFallback: false,
    isPreview: false,
    isLocaleDomain: false,
    locale,
    locales: LANGUAGES.map((language) => language.code),
    defaultLocale: DEFAULT_LANGUAGE,
    push: jest.fn(() => Promise.resolve(true)),
    replace: jest.fn(() => Promise.resolve(true)),
    reload: jest.fn(),
    back: jest.fn(),
    forward: jest.fn(),
    prefetch: jest.fn(() => Promise.resolve()),
    beforePopState: jest.fn(),
    events: { on: jest.fn(), off: jest.fn(), emit: jest.fn() },
    ...overrides,
  }
}

export interface ProviderOptions extends Omit<RenderOptions, 'wrapper'> {
  locale?: string
  queryClient?: QueryClient
  router?: Partial<NextRouter>
  /** The auth state seen by components (default: signed out, loaded). */
  auth?: Partial<AuthState>
}

export function renderWithProviders(ui: ReactElement, options: ProviderOptions = {}) {
  const { locale = DEFAULT_LANGUAGE, queryClient, router, auth, ...renderOptions } = options
  const client = queryClient ?? makeTestQueryClient()
  const i18n = makeTestI18n(locale)
  const testRouter = makeTestRouter({ locale, ...router })
  const authState: AuthState = { user: null, loading: false, ...auth }
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <RouterContext.Provider value={testRouter}>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={client}>
            <AuthContext.Provider value={authState}>{children}</AuthContext.Provider>
          </QueryClientProvider>
        </I18nextProvider>
      </RouterContext.Provider>
    )
  }
  return {
    ...render(ui, { wrapper: Wrapper, ...renderOptions }),
    queryClient: client,
    router: testRouter,
    i18n,
  }
}
