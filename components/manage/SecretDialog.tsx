// Creating a named secret (a publisher's token, a customer's API key) and the dialog that shows
// it the one time the API returns it: a warning that it will not be shown again, the secret and a
// copy button.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useCopyText } from '@/components/common/useCopyText'
import { Dialog, FormDialog } from './Dialog'
import { FormMessage, TextAreaField, TextField } from './fields'
import { textProblem } from './validation'

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

/** Where a kind of secret keeps its texts: the same keys under each (see the locales). */
export type SecretTextsSection = 'manage.tokens' | 'account.keys'

export interface CreateSecretDialogProps {
  section: SecretTextsSection
  nameMax: number
  descriptionMax: number
  pending: boolean
  /** The API's refusal, as a message. */
  error?: string
  /** What the API created, with its secret: shown instead of the form. */
  created?: { name: string; secret: string }
  onCreate: (values: { name: string; description?: string }) => void
  /** Should drop the mutation (and so the secret). */
  onClose: () => void
  /** Fields of this kind of secret only, after name and description. */
  children?: ReactNode
}

/**
 * The create form of a named secret (name, optional description and the caller's own fields),
 * then the secret once. Mount it only while open, with the mutation kept for 0 ms, so closing it
 * drops the secret from memory.
 */
export function CreateSecretDialog({
  section,
  nameMax,
  descriptionMax,
  pending,
  error,
  created,
  onCreate,
  onClose,
  children,
}: CreateSecretDialogProps) {
  const { t } = useTranslation('common')
  const nameRef = useRef<HTMLInputElement>(null)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const text = (key: string, options?: Record<string, unknown>) => t(`${section}.${key}`, options)

  const problems = {
    name: textProblem(name, { max: nameMax, required: text('nameRequired') }, t),
    description: textProblem(description, { max: descriptionMax }, t),
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (problems.name || problems.description || pending) return
    onCreate({ name: name.trim(), description: description.trim() || undefined })
  }

  if (created) {
    return (
      <SecretDialog
        secret={created.secret}
        onClose={onClose}
        texts={{
          title: text('secretTitle'),
          warning: text('secretWarning'),
          label: text('secretLabel', { name: created.name }),
          copy: text('copy'),
          copyFailed: text('copyFailed'),
        }}
      />
    )
  }

  return (
    <FormDialog
      onClose={onClose}
      title={text('createTitle')}
      initialFocus={nameRef}
      label={text('create')}
      pendingLabel={text('creating')}
      pending={pending}
      onSubmit={submit}
    >
      <TextField
        ref={nameRef}
        label={text('name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        autoComplete="off"
        hint={text('nameHint')}
        error={submitted ? problems.name : undefined}
      />
      <TextAreaField
        label={text('description')}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        optional
        rows={2}
        error={submitted ? problems.description : undefined}
      />
      {children}
      {error && <FormMessage kind="error">{error}</FormMessage>}
    </FormDialog>
  )
}
