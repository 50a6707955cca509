import '@/styles/globals.css'
import { HydrationBoundary, QueryClientProvider, type DehydratedState } from '@tanstack/react-query'
import type { AppProps } from 'next/app'
import { appWithTranslation } from 'next-i18next/pages'
import { useState } from 'react'
import { ThemeInit } from '@/.flowbite-react/init'
import { makeQueryClient } from '@/src/api/query-client'
import nextI18nextConfig from '@/next-i18next.config'

export interface PageProps {
  dehydratedState?: DehydratedState
}

function RegistryApp({ Component, pageProps }: AppProps<PageProps>) {
  // One client per browser session (and per request on the server).
  const [queryClient] = useState(makeQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeInit />
      <HydrationBoundary state={pageProps.dehydratedState}>
        <Component {...pageProps} />
      </HydrationBoundary>
    </QueryClientProvider>
  )
}

export default appWithTranslation(RegistryApp, nextI18nextConfig)
