// The queue's keyboard shortcuts, always on screen (short) so they can be discovered.
import { useTranslation } from 'next-i18next/pages'
import { Fragment } from 'react'

const KBD =
  'rounded border border-gray-300 bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-900 dark:border-gray-600 dark:bg-gray-700 dark:text-gray-100'

const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['j', 'k', '↓', '↑'], action: 'move' },
  { keys: ['x', 'space'], action: 'select' },
  { keys: ['a'], action: 'approve' },
  { keys: ['f'], action: 'flag' },
  { keys: ['b'], action: 'ban' },
  { keys: ['enter'], action: 'open' },
]

export function ShortcutLegend({ id }: { id: string }) {
  const { t } = useTranslation('common')
  return (
    <div id={id} className="mb-3 text-xs text-gray-700 dark:text-gray-300">
      <span className="font-medium">{t('admin.queue.shortcuts.title')}</span>{' '}
      <ul className="inline">
        {SHORTCUTS.map(({ keys, action }) => (
          <li key={action} className="mr-3 inline-block whitespace-nowrap">
            {keys.map((key, index) => (
              <Fragment key={key}>
                {index > 0 && ' / '}
                <kbd className={KBD}>
                  {key === 'space' || key === 'enter' ? t(`admin.queue.shortcuts.${key}Key`) : key}
                </kbd>
              </Fragment>
            ))}{' '}
            {t(`admin.queue.shortcuts.${action}`)}
          </li>
        ))}
      </ul>
    </div>
  )
}
