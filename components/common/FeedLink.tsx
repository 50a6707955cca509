// An RSS feed of the page: announced in <head> for feed readers and shown as a small link.
import Head from 'next/head'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'
import { localizedUrl } from '@/src/lib/seo'

export interface FeedLinkProps {
  /** The feed's path without a locale prefix, e.g. `/nodes/x/feed.xml`. */
  path: string
  /** The feed's title, as its channel names itself. */
  title: string
}

export function FeedLink({ path, title }: FeedLinkProps) {
  const { t } = useTranslation('common')
  const { locale = DEFAULT_LANGUAGE } = useRouter()
  const href = locale === DEFAULT_LANGUAGE ? path : `/${locale}${path}`
  return (
    <>
      <Head>
        <link
          key="feed"
          rel="alternate"
          type="application/rss+xml"
          title={title}
          href={localizedUrl(path, locale)}
        />
      </Head>
      <a
        href={href}
        type="application/rss+xml"
        className="inline-flex items-center gap-1 text-sm text-blue-700 underline hover:no-underline dark:text-blue-300"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14" fill="currentColor">
          <circle cx="5" cy="19" r="2.5" />
          <path d="M2.5 10.5a11 11 0 0 1 11 11h-3a8 8 0 0 0-8-8zM2.5 3a18.5 18.5 0 0 1 18.5 18.5h-3A15.5 15.5 0 0 0 2.5 6z" />
        </svg>
        {t('seo.rssFeed')}
      </a>
    </>
  )
}
