// Props of public pages whose main resource may not exist (getServerSideProps, or getStaticProps
// for statically regenerated pages): an API 404 (or a 400 for an id that cannot exist) becomes
// Next's 404 page with HTTP 404; any other failure is thrown, so Next answers with the 500 page.
import type { QueryClient } from '@tanstack/react-query'
import type {
  GetServerSidePropsContext,
  GetServerSidePropsResult,
  GetStaticPropsContext,
  GetStaticPropsResult,
} from 'next'
import { PUBLIC_PAGE_MAX_AGE_S } from '@/public-cache.config'
import { errorStatus } from './api-error'
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

/**
 * The same for statically generated pages (incremental static regeneration): rendered on the
 * first request, then served from Next's page cache and regenerated in the background at most
 * every PUBLIC_PAGE_MAX_AGE_S seconds. Browsers still refetch the data after hydration
 * (stale time 0), so a visitor sees edits at once.
 */
export async function staticPropsOrNotFound(
  context: GetStaticPropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
): Promise<GetStaticPropsResult<PublicProps>> {
  try {
    return { props: await pageProps(context.locale, prefetch), revalidate: PUBLIC_PAGE_MAX_AGE_S }
  } catch (error) {
    if (isNotFound(error)) return { notFound: true, revalidate: PUBLIC_PAGE_MAX_AGE_S }
    throw error
  }
}
