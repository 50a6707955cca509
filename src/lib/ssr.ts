// Server-side rendering helpers: prefetch generated queries into a fresh client and hand the
// dehydrated cache plus translations to the page.
import { dehydrate, type QueryClient } from '@tanstack/react-query'
import type { GetServerSidePropsContext } from 'next'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import { makeQueryClient } from '@/src/api/query-client'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE } from './constants'

/** Public pages may be cached by a CDN for a minute and served stale while it revalidates. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, s-maxage=60, stale-while-revalidate=600'

export async function publicPageProps(
  context: GetServerSidePropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
) {
  const queryClient = makeQueryClient()
  await prefetch(queryClient)
  context.res.setHeader('Cache-Control', PUBLIC_PAGE_CACHE_CONTROL)
  return {
    ...(await serverSideTranslations(
      context.locale ?? DEFAULT_LANGUAGE,
      ['common'],
      nextI18nextConfig,
    )),
    dehydratedState: dehydrate(queryClient),
  }
}
