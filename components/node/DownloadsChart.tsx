// A node's downloads per day as a bar chart: inline SVG rendered with the page on the server (no
// chart library; its code is in the below-the-fold chunk, NodeView), a visually hidden table of
// the same numbers for screen readers, and a 30/90-day switch that slices the 90 days the page
// already holds (no request).
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import type { NodeDailyDownloads } from '@/src/api/generated/model'
import { formatDate, formatNumber } from './format'

// The page asks for DOWNLOAD_HISTORY_DAYS once (node-lists.ts); the switch shows the last RANGES.
export const RANGES = [30, 90] as const
type Range = (typeof RANGES)[number]

/**
 * The chart's top line: the smallest 2, 4, 6, 8, 10, 12, 16 or 20 × 10ⁿ at least `value`, so it and its
 * half (the middle line) are whole numbers.
 */
export function niceCeiling(value: number): number {
  if (value <= 2) return 2
  // value is in [2, 20) × magnitude.
  const magnitude = 10 ** Math.floor(Math.log10(value / 2))
  for (const step of [2, 4, 6, 8, 10, 12, 16]) {
    if (step * magnitude >= value) return step * magnitude
  }
  return 20 * magnitude
}

/** SVG units: one per day across, HEIGHT up (the SVG is stretched to the box). */
const HEIGHT = 100

const RANGE_BUTTON =
  'rounded-md border px-3 py-1 text-sm font-medium focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none'
const RANGE_ON =
  'border-blue-700 bg-blue-700 text-white dark:border-blue-300 dark:bg-blue-300 dark:text-gray-900'
const RANGE_OFF =
  'border-gray-300 bg-white text-gray-900 hover:bg-gray-100 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700'

export function DownloadsChart({ history }: { history: NodeDailyDownloads }) {
  const { t, i18n } = useTranslation('common')
  const locale = i18n.language
  const [range, setRange] = useState<Range>(RANGES[0])
  const titleId = useId()
  const days = history.daily.slice(-range)
  const total = days.reduce((sum, item) => sum + item.downloads, 0)
  const top = niceCeiling(Math.max(0, ...days.map((item) => item.downloads)))
  const date = (day: string) => formatDate(day, locale) ?? day
  const number = (value: number) => formatNumber(value, locale)
  const from = days[0]?.day
  const to = days[days.length - 1]?.day
  const historyEmpty = history.daily.every((item) => item.downloads === 0)

  if (historyEmpty || !from || !to) {
    return (
      <p className="text-gray-700 dark:text-gray-300">
        {t('node.downloadsChart.noHistory', { days: history.daily.length })}
      </p>
    )
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {t('node.downloadsChart.total', { days: range, total: number(total) })}
        </p>
        <div role="group" aria-label={t('node.downloadsChart.range')} className="flex gap-2">
          {RANGES.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={option === range}
              onClick={() => setRange(option)}
              className={`${RANGE_BUTTON} ${option === range ? RANGE_ON : RANGE_OFF}`}
            >
              {t(`node.downloadsChart.days${option}`)}
            </button>
          ))}
        </div>
      </div>
      {total === 0 ? (
        <p className="text-gray-700 dark:text-gray-300">
          {t('node.downloadsChart.empty', { days: range })}
        </p>
      ) : (
        <>
          <div className="flex gap-2">
            {/* The value axis, as text outside the stretched SVG so it stays readable. */}
            <div
              aria-hidden="true"
              className="flex h-40 flex-col justify-between text-right text-xs text-gray-700 tabular-nums dark:text-gray-300"
            >
              <span className="-translate-y-1/2">{number(top)}</span>
              <span>{number(top / 2)}</span>
              <span className="translate-y-1/2">0</span>
            </div>
            <svg
              role="img"
              aria-labelledby={titleId}
              viewBox={`0 0 ${days.length} ${HEIGHT}`}
              preserveAspectRatio="none"
              width="100%"
              height="160"
              className="h-40 w-full min-w-0 text-blue-600 dark:text-blue-400"
            >
              <title id={titleId}>
                {t('node.downloadsChart.chartLabel', {
                  days: range,
                  from: date(from),
                  to: date(to),
                  total: number(total),
                })}
              </title>
              <g className="text-gray-300 dark:text-gray-600" stroke="currentColor">
                {[0, HEIGHT / 2, HEIGHT].map((y) => (
                  <line
                    key={y}
                    x1={0}
                    x2={days.length}
                    y1={y}
                    y2={y}
                    vectorEffect="non-scaling-stroke"
                  />
                ))}
              </g>
              <g fill="currentColor">
                {days.map((item, index) => {
                  const height = (item.downloads / top) * HEIGHT
                  return (
                    <rect
                      key={item.day}
                      x={index + 0.15}
                      width={0.7}
                      y={HEIGHT - height}
                      height={height}
                    >
                      <title>
                        {t('node.downloadsChart.bar', {
                          date: date(item.day),
                          downloads: number(item.downloads),
                        })}
                      </title>
                    </rect>
                  )
                })}
              </g>
            </svg>
          </div>
          {/* The time axis: first, middle and last day. */}
          <div
            aria-hidden="true"
            className="flex justify-between gap-2 text-xs text-gray-700 dark:text-gray-300"
          >
            <span>{date(from)}</span>
            <span className="hidden sm:inline">{date(days[Math.floor(days.length / 2)].day)}</span>
            <span>{date(to)}</span>
          </div>
          <table className="sr-only">
            <caption>{t('node.downloadsChart.caption', { days: range })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('node.downloadsChart.date')}</th>
                <th scope="col">{t('node.downloadsChart.downloads')}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((item) => (
                <tr key={item.day}>
                  <th scope="row">
                    <time dateTime={item.day}>{date(item.day)}</time>
                  </th>
                  <td>{number(item.downloads)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  )
}
