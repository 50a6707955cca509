// The dialog that shows a new secret (a publisher's token, a customer's API key) the one time the
// API returns it: a warning that it will not be shown again, the secret and a copy button.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId } from 'react'
import { useCopyText } from '@/components/common/useCopyText'
import { Dialog } from './Dialog'

export interface SecretDialogTexts {
  title: string
  warning: string
  /** Names the secret (its label). */
  label: string
  copy: string
  copyFailed: string
}

function CopySecret({
  secret,
  labelId,
  texts,
}: {
  secret: string
  labelId: string
  texts: SecretDialogTexts
}) {
  const { t } = useTranslation('common')
  const { state, copy } = useCopyText()
  return (
    <>
      <div className="flex flex-wrap items-stretch gap-2">
        <pre className="min-w-0 flex-1 rounded-md border border-gray-300 bg-gray-50 px-3 py-2 text-sm break-words whitespace-pre-wrap dark:border-gray-600 dark:bg-gray-900">
          <code aria-labelledby={labelId} data-testid="secret">
            {secret}
          </code>
        </pre>
        <Button color="blue" onClick={() => void copy(secret)}>
          {texts.copy}
        </Button>
      </div>
      <p role="status" aria-live="polite" className="mt-2 min-h-5 text-sm">
        {state === 'copied' && (
          <span className="text-green-800 dark:text-green-300">{t('manage.tokens.copied')}</span>
        )}
        {state === 'failed' && (
          <span className="text-red-700 dark:text-red-300">{texts.copyFailed}</span>
        )}
      </p>
    </>
  )
}

/** Mount it only while the secret is known: closing it should drop the secret from memory. */
export function SecretDialog({
  secret,
  texts,
  onClose,
}: {
  secret: string
  texts: SecretDialogTexts
  onClose: () => void
}) {
  const { t } = useTranslation('common')
  const labelId = useId()
  return (
    <Dialog
      open
      onClose={onClose}
      title={texts.title}
      footer={
        <Button color="light" onClick={onClose}>
          {t('manage.tokens.done')}
        </Button>
      }
    >
      <div className="space-y-4">
        <p
          role="alert"
          className="rounded-lg border border-yellow-300 bg-yellow-50 p-3 text-sm font-medium text-yellow-900 dark:border-yellow-700 dark:bg-yellow-950 dark:text-yellow-100"
        >
          {texts.warning}
        </p>
        <p id={labelId} className="text-sm font-medium">
          {texts.label}
        </p>
        <CopySecret secret={secret} labelId={labelId} texts={texts} />
      </div>
    </Dialog>
  )
}
