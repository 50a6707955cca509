// Class names of the review view (light and dark mode), on top of components/manage/styles.ts.
export { CARD, LINK, MUTED, SECONDARY_LINK } from '@/components/manage/styles'

export const SECTION =
  'rounded-lg border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-700 dark:bg-gray-800'
export const SECTION_TITLE = 'text-xl font-semibold text-gray-900 dark:text-white'
/** A file path or `file:line` that opens the file viewer. */
export const LOCATION_BUTTON =
  'cursor-pointer rounded font-mono break-words text-blue-700 underline hover:no-underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300'
