// Server-side rendering helpers: prefetch generated queries into a fresh client and hand the
// dehydrated cache plus translations to the page.
import { dehydrate, type QueryClient } from '@tanstack/react-query'
import type { GetServerSidePropsContext } from 'next'
import { makeQueryClient } from '@/src/api/query-client'
import { PUBLIC_PAGE_CACHE_CONTROL } from '@/public-cache.config'
import { publicTranslations } from './public-translations'

/** Translations and the dehydrated cache after `prefetch` ran against a fresh query client. */
export async function pageProps(
  locale: string | undefined,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
) {
  const queryClient = makeQueryClient()
  await prefetch(queryClient)
  return {
    ...(await publicTranslations(locale)),
    dehydratedState: dehydrate(queryClient),
  }
}

/** Server-rendered per request (getServerSideProps), cacheable by a CDN. */
export async function publicPageProps(
  context: GetServerSidePropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
) {
  const props = await pageProps(context.locale, prefetch)
  context.res.setHeader('Cache-Control', PUBLIC_PAGE_CACHE_CONTROL)
  return props
}
