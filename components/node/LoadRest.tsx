// The part of a long list the node page loads when the visitor opens it (node-lists.ts): while it
// loads the list says so, and if it cannot be loaded the visitor is told and can ask again.
import { useTranslation } from 'next-i18next/pages'

export interface LoadRest {
  load: () => void
  loading: boolean
  failed: boolean
}

export const SHOW_MORE_BUTTON_CLASS =
  'mt-3 rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus:ring-gray-700'

export function LoadRestNotice({ rest }: { rest: LoadRest }) {
  const { t } = useTranslation('common')
  if (rest.failed) {
    return (
      <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
        {t('node.loadRestFailed')}{' '}
        <button
          type="button"
          onClick={rest.load}
          className="font-medium underline hover:no-underline"
        >
          {t('node.tryAgain')}
        </button>
      </p>
    )
  }
  return rest.loading ? (
    <p role="status" className="mt-3 text-sm text-gray-700 dark:text-gray-300">
      {t('common.loading')}
    </p>
  ) : null
}
