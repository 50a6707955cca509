import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useEffect } from 'react'
import { pageWithin } from '@/src/lib/page-number'

/** Page numbers to show: the first, the last and the neighbours of the current, with gaps. */
export function pageItems(page: number, totalPages: number, siblings = 1): (number | 'gap')[] {
  if (totalPages <= 1) return [1]
  const wanted = new Set([1, totalPages])
  for (let p = page - siblings; p <= page + siblings; p++) {
    if (p >= 1 && p <= totalPages) wanted.add(p)
  }
  // A gap of a single page is shown as that page rather than as "…".
  const sorted = [...wanted].sort((a, b) => a - b)
  const items: (number | 'gap')[] = []
  sorted.forEach((p, index) => {
    const previous = sorted[index - 1]
    if (previous !== undefined && p - previous === 2) items.push(p - 1)
    else if (previous !== undefined && p - previous > 2) items.push('gap')
    items.push(p)
  })
  return items
}

/**
 * Keeps the address honest in the browser: when the list turns out to have fewer pages than the
 * one the address names (it shrank since the link was made), the address is replaced with the
 * last page's. Server rendering redirects in the same case (src/lib/public-page.ts).
 * `totalPages` is undefined while the list for this page is not known yet.
 */
export function usePageInRange(
  page: number,
  totalPages: number | undefined,
  hrefFor: (page: number) => string,
  shallow = false,
): void {
  const router = useRouter()
  const target = totalPages === undefined ? page : pageWithin(page, totalPages)
  const href = target === page ? undefined : hrefFor(target)
  useEffect(() => {
    if (href) void router.replace(href, undefined, { shallow, scroll: false })
  }, [href, router, shallow])
}

export interface PaginationProps {
  page: number
  totalPages: number
  /** The address of a page. */
  hrefFor: (page: number) => string
  /** Shallow navigation (same page, data from React Query). */
  shallow?: boolean
}

// One short class per item, styled in styles/globals.css (.page-item): a listing's HTML carries
// each of them several times (docs/ARCHITECTURE.md "Page weight").
const IDLE = 'page-item'
const CURRENT = 'page-item page-current'
const DISABLED = 'page-item page-disabled'

export function Pagination({ page, totalPages, hrefFor, shallow = false }: PaginationProps) {
  const { t } = useTranslation('common')
  if (totalPages <= 1) return null
  const previous = page > 1 ? page - 1 : null
  const next = page < totalPages ? page + 1 : null

  return (
    <nav aria-label={t('nodes.pagination')} className="mt-8 flex justify-center">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          {previous ? (
            <Link
              href={hrefFor(previous)}
              shallow={shallow}
              prefetch={false}
              rel="prev"
              className={IDLE}
            >
              <span aria-hidden="true">‹</span>
              <span className="ml-1">{t('nodes.previous')}</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={DISABLED}>
              <span aria-hidden="true">‹</span>
              <span className="ml-1">{t('nodes.previous')}</span>
            </span>
          )}
        </li>
        <li className="px-2 text-sm text-gray-700 sm:hidden dark:text-gray-200">
          {t('nodes.pageOf', { page, totalPages })}
        </li>
        {pageItems(page, totalPages).map((item, index) =>
          item === 'gap' ? (
            <li
              key={`gap-${index}`}
              aria-hidden="true"
              className="hidden px-1 text-gray-500 sm:block dark:text-gray-400"
            >
              …
            </li>
          ) : (
            <li key={item} className="hidden sm:block">
              <Link
                href={hrefFor(item)}
                shallow={shallow}
                prefetch={false}
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('nodes.page', { page: item })}
                className={item === page ? CURRENT : IDLE}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {next ? (
            <Link
              href={hrefFor(next)}
              shallow={shallow}
              prefetch={false}
              rel="next"
              className={IDLE}
            >
              <span className="mr-1">{t('nodes.next')}</span>
              <span aria-hidden="true">›</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={DISABLED}>
              <span className="mr-1">{t('nodes.next')}</span>
              <span aria-hidden="true">›</span>
            </span>
          )}
        </li>
      </ul>
    </nav>
  )
}
