// getServerSideProps for public pages whose main resource may not exist: an API 404 (or a 400 for
// an id that cannot exist) becomes Next's 404 page with HTTP 404; any other failure is thrown, so
// Next answers with the 500 page.
import type { QueryClient } from '@tanstack/react-query'
import { isAxiosError } from 'axios'
import type { GetServerSidePropsContext, GetServerSidePropsResult } from 'next'
import { publicPageProps } from './ssr'

export function isNotFound(error: unknown): boolean {
  const status = isAxiosError(error) ? error.response?.status : undefined
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
