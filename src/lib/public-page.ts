// Props of public pages whose main resource may not exist (getServerSideProps, or getStaticProps
// for statically regenerated pages): an API 404 (or a 400 for an id that cannot exist) becomes
// Next's 404 page with HTTP 404; any other failure is thrown, so Next answers with the 500 page.
// Pages check their ids first (src/lib/contract-ids.ts): an impossible id is the 404 page
// without asking the API. Prefetching never retries (src/lib/ssr.ts), so either page is prompt.
import type { QueryClient } from '@tanstack/react-query'
import type {
  GetServerSidePropsContext,
  GetServerSidePropsResult,
  GetStaticPropsContext,
  GetStaticPropsResult,
} from 'next'
import { PUBLIC_PAGE_MAX_AGE_S } from '@/public-cache.config'
import { errorStatus } from './api-error'
import { pageNeedsNewAddress, pageWithin } from './page-number'
import { LISTING_LEAVES_OUT } from './public-translations'
import { pageProps, publicPageProps } from './ssr'

export function isNotFound(error: unknown): boolean {
  const status = errorStatus(error)
  return status === 404 || status === 400
}

type PublicProps = Awaited<ReturnType<typeof publicPageProps>>

export async function publicPropsOrNotFound(
  context: GetServerSidePropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
): Promise<GetServerSidePropsResult<PublicProps>> {
  try {
    return { props: await publicPageProps(context, prefetch) }
  } catch (error) {
    if (isNotFound(error)) return { notFound: true }
    throw error
  }
}

/** A statically regenerated page that does not exist (kept in the page cache like any other). */
export const STATIC_NOT_FOUND = { notFound: true, revalidate: PUBLIC_PAGE_MAX_AGE_S } as const

/**
 * The same for statically generated pages (incremental static regeneration): rendered on the
 * first request, then served from Next's page cache and regenerated in the background at most
 * every PUBLIC_PAGE_MAX_AGE_S seconds. Browsers still refetch the data after hydration
 * (stale time 0), so a visitor sees edits at once.
 */
export async function staticPropsOrNotFound(
  context: GetStaticPropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
  leaveOut?: Parameters<typeof pageProps>[2],
): Promise<GetStaticPropsResult<PublicProps>> {
  try {
    const props = await pageProps(context.locale, prefetch, leaveOut)
    return { props, revalidate: PUBLIC_PAGE_MAX_AGE_S }
  } catch (error) {
    if (isNotFound(error)) return STATIC_NOT_FOUND
    throw error
  }
}

/** A path of this site in the request's language (Next does not add the prefix to redirects). */
export function localizedPath(
  path: string,
  context: Pick<GetServerSidePropsContext, 'locale' | 'defaultLocale'>,
): string {
  if (!context.locale || context.locale === context.defaultLocale) return path
  // The home page in French is `/fr` (`/fr?page=2`), not `/fr/`.
  const rest = path === '/' || path.startsWith('/?') ? path.slice(1) : path
  return `/${context.locale}${rest}`
}

export interface Listing {
  /** The page asked for (`pageFromQuery` of the address). */
  page: number
  /** Prefetches that page and resolves with the list's number of pages. */
  prefetch: (queryClient: QueryClient) => Promise<number>
  /** The address of a page of the same listing (without the language prefix). */
  hrefFor: (page: number) => string
}

/**
 * Props of a paginated public listing. When the address's `page` is not the page shown
 * (malformed, or beyond the last page, which is then shown), the visitor is sent to the honest
 * address: a temporary redirect, as the number of pages changes.
 */
export async function listingPropsOrNotFound(
  context: GetServerSidePropsContext,
  { page, prefetch, hrefFor }: Listing,
): Promise<GetServerSidePropsResult<PublicProps>> {
  let totalPages = 1
  const result = await publicPropsOrNotFound(context, async (queryClient) => {
    totalPages = await prefetch(queryClient)
  })
  const shown = pageWithin(page, totalPages)
  if ('props' in result && pageNeedsNewAddress(context.query.page, shown)) {
    return { redirect: { destination: localizedPath(hrefFor(shown), context), permanent: false } }
  }
  return result
}

/**
 * The same for a statically regenerated listing (the home page, src/lib/listing-address.ts). Its
 * page is rendered for every visitor of the address, so the API sees the website's own address:
 * when that is over its search limit, the page is sent without the results, which the browser
 * then asks for with the visitor's own address, and it is regenerated a second later.
 */
export async function staticListingProps(
  context: GetStaticPropsContext,
  { page, prefetch, hrefFor }: Listing,
): Promise<GetStaticPropsResult<PublicProps>> {
  let totalPages = 1
  let result: GetStaticPropsResult<PublicProps>
  try {
    result = await staticPropsOrNotFound(
      context,
      async (queryClient) => {
        totalPages = await prefetch(queryClient)
      },
      LISTING_LEAVES_OUT,
    )
  } catch (error) {
    if (errorStatus(error) !== 429) throw error
    const props = await pageProps(context.locale, async () => undefined, LISTING_LEAVES_OUT)
    return { props, revalidate: 1 }
  }
  const shown = pageWithin(page, totalPages)
  if ('props' in result && shown !== page) {
    const destination = localizedPath(hrefFor(shown), context)
    return { redirect: { destination, permanent: false }, revalidate: PUBLIC_PAGE_MAX_AGE_S }
  }
  return result
}
