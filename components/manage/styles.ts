// Class names shared by the management pages (light and dark mode).
export const LINK = 'text-blue-700 underline hover:no-underline dark:text-blue-300'
export const BUTTON_LINK =
  'inline-flex h-10 items-center justify-center rounded-lg bg-blue-700 px-5 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800'
export const SECONDARY_LINK =
  'inline-flex h-9 items-center justify-center rounded-lg border border-gray-300 bg-white px-3 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-white dark:hover:bg-gray-700 dark:focus:ring-gray-700'
export const CARD =
  'rounded-lg border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-700 dark:bg-gray-800'
export const MUTED = 'text-gray-700 dark:text-gray-300'
