import type { GetServerSideProps } from 'next'
import Head from 'next/head'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { NodeCard } from '@/components/nodes/NodeCard'
import { getListAllNodesQueryOptions, useListAllNodes } from '@/src/api/generated/nodes/nodes'
import { NODES_PAGE_SIZE } from '@/src/lib/constants'
import { publicPageProps } from '@/src/lib/ssr'

function pageFromQuery(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value)
  return Number.isInteger(page) && page >= 1 ? page : 1
}

export default function HomePage() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const page = pageFromQuery(router.query.page)
  const { data, isError } = useListAllNodes({ page, limit: NODES_PAGE_SIZE })

  return (
    <>
      <Head>
        <title>{t('site.title')}</title>
        <meta name="description" content={t('site.description')} />
      </Head>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <h1 className="text-3xl font-bold">{t('site.title')}</h1>
        <p className="mt-2 text-gray-700 dark:text-gray-300">{t('site.description')}</p>
        {isError && (
          <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
            {t('nodes.loadError')}
          </p>
        )}
        {data && (
          <>
            <p className="mt-6 text-sm text-gray-600 dark:text-gray-400">
              {t('nodes.total', { count: data.total })}
            </p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data.nodes.map((node) => (
                <li key={node.id} className="flex">
                  <NodeCard node={node} />
                </li>
              ))}
            </ul>
            <nav
              aria-label={t('nodes.pagination')}
              className="mt-8 flex items-center justify-between"
            >
              {page > 1 ? (
                <Link
                  href={{ query: { page: page - 1 } }}
                  className="text-blue-700 hover:underline dark:text-blue-400"
                >
                  {t('nodes.previous')}
                </Link>
              ) : (
                <span />
              )}
              <span className="text-sm">
                {t('nodes.pageOf', { page, totalPages: data.totalPages })}
              </span>
              {page < data.totalPages ? (
                <Link
                  href={{ query: { page: page + 1 } }}
                  className="text-blue-700 hover:underline dark:text-blue-400"
                >
                  {t('nodes.next')}
                </Link>
              ) : (
                <span />
              )}
            </nav>
          </>
        )}
      </main>
    </>
  )
}

export const getServerSideProps: GetServerSideProps = async (context) => ({
  props: await publicPageProps(context, (queryClient) =>
    queryClient.prefetchQuery(
      getListAllNodesQueryOptions({
        page: pageFromQuery(context.query.page),
        limit: NODES_PAGE_SIZE,
      }),
    ),
  ),
})
