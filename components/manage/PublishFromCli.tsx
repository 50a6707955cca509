// How to publish a node from the command line, with a link to the publishing guide.
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { PUBLISHING_DOCS_URL } from '@/src/lib/constants'
import { LINK, MUTED } from './styles'

export const PUBLISH_COMMAND = 'comfy node publish'

export function PublishFromCli() {
  const { t } = useTranslation('common')
  const id = useId()
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-lg font-semibold">
        {t('manage.cli.title')}
      </h2>
      <ol className={`mt-2 list-decimal space-y-1 pl-6 text-sm ${MUTED}`}>
        <li>{t('manage.cli.step1')}</li>
        <li>{t('manage.cli.step2')}</li>
        <li>{t('manage.cli.step3')}</li>
      </ol>
      <pre className="mt-3 overflow-x-auto rounded-md border border-gray-300 bg-gray-50 px-3 py-2 text-sm dark:border-gray-600 dark:bg-gray-900">
        <code>{PUBLISH_COMMAND}</code>
      </pre>
      <p className="mt-3 text-sm">
        <a href={PUBLISHING_DOCS_URL} className={LINK}>
          {t('manage.cli.docs')}
        </a>
      </p>
    </section>
  )
}
