import '@/styles/globals.css'
// Before any module that loads zod: no eval probe under the CSP (src/lib/zod-jitless.ts).
import '@/src/lib/zod-jitless'
import { HydrationBoundary, type DehydratedState } from '@tanstack/react-query'
import type { AppProps } from 'next/app'
import localFont from 'next/font/local'
import { useRouter } from 'next/router'
import { appWithTranslation } from 'next-i18next/pages'
import { useEffect, useState } from 'react'
import { ThemeInit } from '@/.flowbite-react/init'
import { Layout } from '@/components/common/Layout'
import { ToastHost } from '@/components/common/ToastHost'
import { refreshAfterFirstLoad } from '@/src/api/first-load-refresh'
import { connectInvalidation } from '@/src/api/invalidation'
import { browserPersistOptions } from '@/src/api/persist'
import { PersistedQueryProvider } from '@/src/api/persisted-query-provider'
import { makeQueryClient } from '@/src/api/query-client'
import { AuthProvider, type RequiresAuth } from '@/src/lib/auth'
import { hydrateInSlices } from '@/src/lib/hydrate-in-slices'
import { keepPageLanguage } from '@/src/lib/i18n'
import { applyInterIfLoaded } from '@/src/lib/inter-font'
import { withPageTranslations } from '@/src/lib/page-translations'
import nextI18nextConfig from '@/next-i18next.config'

// The page hydrates in slices, not in one long task (src/lib/hydrate-in-slices.ts).
hydrateInSlices()

// Inter, self-hosted from @fontsource-variable/inter: no font download from a third party. Not
// preloaded: it is fetched after the first paint and used from the next page on
// (styles/globals.css, SCRIPT_LOADER, src/lib/inter-font.ts).
const inter = localFont({
  src: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  weight: '100 900',
  style: 'normal',
  display: 'swap',
  preload: false,
  variable: '--font-inter',
})

export interface PageProps {
  dehydratedState?: DehydratedState
}

function RegistryApp({ Component, pageProps }: AppProps<PageProps>) {
  // A page with `Page.requiresAuth = true` loads Firebase even for a first-time visitor.
  const requiresAuth = (Component as RequiresAuth).requiresAuth === true
  // One client per browser session (and per request on the server).
  const [queryClient] = useState(makeQueryClient)
  const [persistOptions] = useState(browserPersistOptions)
  const { locale, events } = useRouter()

  // Successful writes invalidate the cached queries of their path (seed section 7).
  useEffect(() => connectInvalidation(queryClient), [queryClient])
  // The server-rendered data is refreshed once the page has loaded and the browser is idle.
  useEffect(() => refreshAfterFirstLoad(queryClient), [queryClient])
  // The page reached client-side is set in Inter once it has loaded (src/lib/inter-font.ts).
  useEffect(() => {
    events.on('routeChangeComplete', applyInterIfLoaded)
    return () => events.off('routeChangeComplete', applyInterIfLoaded)
  }, [events])
  // Client-side locale changes keep the page's language tag right (detection reads it).
  useEffect(() => {
    if (locale) keepPageLanguage(locale)
  }, [locale])

  return (
    <PersistedQueryProvider client={queryClient} persistOptions={persistOptions}>
      <HydrationBoundary state={pageProps.dehydratedState}>
        <AuthProvider requiresAuth={requiresAuth}>
          <ThemeInit />
          <div className={`${inter.variable} font-sans`}>
            <Layout>
              <Component {...pageProps} />
            </Layout>
            <ToastHost />
          </div>
        </AuthProvider>
      </HydrationBoundary>
    </PersistedQueryProvider>
  )
}

// withPageTranslations: pages reached client-side bring sections public pages leave out.
export default appWithTranslation(withPageTranslations(RegistryApp), nextI18nextConfig)
