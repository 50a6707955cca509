// Server-side rendering helpers: prefetch generated queries into a fresh client and hand the
// dehydrated cache plus translations to the page. The client never retries (see
// makeServerQueryClient): a failed API call fails the page at once.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage } from 'node:http'
import { dehydrate, type QueryClient } from '@tanstack/react-query'
import type { GetServerSidePropsContext } from 'next'
import { setServerRequestHeaders } from '@/src/api/mutator'
import { makeServerQueryClient } from '@/src/api/query-client'
import { PUBLIC_PAGE_CACHE_CONTROL } from '@/public-cache.config'
import { publicTranslations } from './public-translations'

/** Translations and the dehydrated cache after `prefetch` ran against a fresh query client. */
export async function pageProps(
  locale: string | undefined,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
  leaveOut?: Parameters<typeof publicTranslations>[2],
) {
  const queryClient = makeServerQueryClient()
  await prefetch(queryClient)
  return {
    ...(await publicTranslations(locale, [], leaveOut)),
    dehydratedState: dehydrate(queryClient),
  }
}

/**
 * The visitor's address chain for the API calls made while rendering their page: the API counts
 * per-address limits (searches) by it when it trusts this server (TRUST_PROXY), instead of
 * counting every visitor's search against the website's own address. See docs/ARCHITECTURE.md.
 */
const visitor = new AsyncLocalStorage<string>()
setServerRequestHeaders((): Record<string, string> => {
  const chain = visitor.getStore()
  return chain ? { 'X-Forwarded-For': chain } : {}
})

/** `X-Forwarded-For` as this server would pass it on: what it was given, then its own peer. */
export function forwardedFor(request: IncomingMessage): string | undefined {
  const given = request.headers['x-forwarded-for']
  const chain = [given, request.socket.remoteAddress]
    .flat()
    .flatMap((item) => (item ?? '').split(','))
    .map((item) => item.trim())
    .filter(Boolean)
  return chain.length ? chain.join(', ') : undefined
}

/** Server-rendered per request (getServerSideProps), cacheable by a CDN. */
export async function publicPageProps(
  context: GetServerSidePropsContext,
  prefetch: (queryClient: QueryClient) => Promise<unknown>,
) {
  const chain = forwardedFor(context.req)
  const render = () => pageProps(context.locale, prefetch)
  const props = await (chain ? visitor.run(chain, render) : render())
  context.res.setHeader('Cache-Control', PUBLIC_PAGE_CACHE_CONTROL)
  return props
}
