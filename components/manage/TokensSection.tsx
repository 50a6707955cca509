// Personal access tokens of a publisher (owners): the list (by public id, never the secret),
// creation in a modal that shows the secret exactly once, and deletion.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useRef, useState, type FormEvent } from 'react'
import { formatDate } from '@/components/node/format'
import {
  CreatePersonalAccessTokenRequestExpiresInDays as ExpiresInDays,
  type PersonalAccessToken,
} from '@/src/api/generated/model'
import {
  useCreatePersonalAccessToken,
  useDeletePersonalAccessToken,
  useListPersonalAccessTokens,
} from '@/src/api/generated/tokens/tokens'
import { apiErrorMessage } from '@/src/lib/api-error'
import { DESCRIPTION_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH } from './limits'
import { ConfirmDialog } from './ConfirmDialog'
import { FormDialog } from './Dialog'
import { FormMessage, SelectField, TextAreaField, TextField } from './fields'
import { SecretDialog } from './SecretDialog'
import { CARD, MUTED } from './styles'
import { textProblem } from './validation'

/** The expiry choices of the contract, in days, and "never" (no expiry). */
export const TOKEN_EXPIRY_CHOICES = [...Object.values(ExpiresInDays), 'never'] as const
type ExpiryChoice = (typeof TOKEN_EXPIRY_CHOICES)[number]
const DEFAULT_EXPIRY: ExpiryChoice = ExpiresInDays.NUMBER_90

/**
 * The create-token modal. It is mounted only while open: closing it unmounts the form and the
 * mutation (kept for 0 ms), so the secret is dropped from memory.
 */
export function CreateTokenDialog({
  publisherId,
  onClose,
}: {
  publisherId: string
  onClose: () => void
}) {
  const { t } = useTranslation('common')
  const nameRef = useRef<HTMLInputElement>(null)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY)
  const [submitted, setSubmitted] = useState(false)
  const create = useCreatePersonalAccessToken({ mutation: { gcTime: 0 } })
  const created = create.data

  const problems = {
    name: textProblem(
      name,
      { max: TOKEN_NAME_MAX_LENGTH, required: t('manage.tokens.nameRequired') },
      t,
    ),
    description: textProblem(description, { max: DESCRIPTION_MAX_LENGTH }, t),
  }
  const close = () => {
    create.reset()
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (problems.name || problems.description || create.isPending) return
    create.mutate({
      publisherId,
      data: {
        name: name.trim(),
        description: description.trim() || undefined,
        expires_in_days: expiry === 'never' ? null : expiry,
      },
    })
  }

  if (created) {
    return (
      <SecretDialog
        secret={created.token}
        onClose={close}
        texts={{
          title: t('manage.tokens.secretTitle'),
          warning: t('manage.tokens.secretWarning'),
          label: t('manage.tokens.secretLabel', { name: created.name }),
          copy: t('manage.tokens.copy'),
          copyFailed: t('manage.tokens.copyFailed'),
        }}
      />
    )
  }

  return (
    <FormDialog
      onClose={close}
      title={t('manage.tokens.createTitle')}
      initialFocus={nameRef}
      label={t('manage.tokens.create')}
      pendingLabel={t('manage.tokens.creating')}
      pending={create.isPending}
      onSubmit={submit}
    >
      <TextField
        ref={nameRef}
        label={t('manage.tokens.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        autoComplete="off"
        hint={t('manage.tokens.nameHint')}
        error={submitted ? problems.name : undefined}
      />
      <TextAreaField
        label={t('manage.tokens.description')}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        optional
        rows={2}
        error={submitted ? problems.description : undefined}
      />
      <SelectField
        label={t('manage.tokens.expiry')}
        value={String(expiry)}
        onChange={(event) =>
          setExpiry(
            event.target.value === 'never' ? 'never' : (Number(event.target.value) as ExpiryChoice),
          )
        }
      >
        {TOKEN_EXPIRY_CHOICES.map((choice) => (
          <option key={choice} value={String(choice)}>
            {choice === 'never'
              ? t('manage.tokens.expiryNever')
              : t('manage.tokens.expiryDays', { count: choice })}
          </option>
        ))}
      </SelectField>
      {create.isError && <FormMessage kind="error">{apiErrorMessage(create.error, t)}</FormMessage>}
    </FormDialog>
  )
}

function TokenItem({
  token,
  now,
  onDelete,
}: {
  token: PersonalAccessToken
  /** When the list was shown (ms), to mark expired tokens. */
  now: number
  onDelete: () => void
}) {
  const { t, i18n } = useTranslation('common')
  const date = (value: string | null | undefined) =>
    value ? <time dateTime={value}>{formatDate(value, i18n.language)}</time> : undefined
  const expired = token.expiresAt ? Date.parse(token.expiresAt) <= now : false
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words">{token.name}</h3>
          {token.description && (
            <p className={`text-sm break-words ${MUTED}`}>{token.description}</p>
          )}
        </div>
        <Button
          color="light"
          size="sm"
          aria-label={t('manage.tokens.deleteLabel', { name: token.name })}
          onClick={onDelete}
        >
          {t('manage.tokens.delete')}
        </Button>
      </div>
      <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className={MUTED}>{t('manage.tokens.token')}:</dt>
          <dd className="min-w-0 font-mono break-words">{token.token}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={MUTED}>{t('manage.tokens.created')}:</dt>
          <dd>{date(token.createdAt)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={MUTED}>{t('manage.tokens.expires')}:</dt>
          <dd>
            {date(token.expiresAt) ?? t('manage.tokens.expiresNever')}
            {expired && (
              <span className="ml-1 font-medium text-red-700 dark:text-red-400">
                ({t('manage.tokens.expired')})
              </span>
            )}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className={MUTED}>{t('manage.tokens.lastUsed')}:</dt>
          <dd>{date(token.lastUsedAt) ?? t('manage.tokens.neverUsed')}</dd>
        </div>
      </dl>
    </li>
  )
}

export function TokensSection({ publisherId }: { publisherId: string }) {
  const { t } = useTranslation('common')
  const headingId = useId()
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<PersonalAccessToken>()
  const [now] = useState(() => Date.now())
  const tokens = useListPersonalAccessTokens(publisherId)
  const remove = useDeletePersonalAccessToken()

  return (
    <section aria-labelledby={headingId} className={CARD}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-xl font-semibold">
            {t('manage.tokens.title')}
          </h2>
          <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.tokens.intro')}</p>
        </div>
        <Button color="blue" onClick={() => setCreating(true)}>
          {t('manage.tokens.create')}
        </Button>
      </div>
      {tokens.isPending ? (
        <p role="status" className={`mt-4 ${MUTED}`}>
          {t('manage.loading')}
        </p>
      ) : tokens.isError ? (
        <div className="mt-4">
          <FormMessage kind="error">{apiErrorMessage(tokens.error, t)}</FormMessage>
        </div>
      ) : tokens.data.length === 0 ? (
        <p className={`mt-4 ${MUTED}`}>{t('manage.tokens.none')}</p>
      ) : (
        <ul
          aria-label={t('manage.tokens.title')}
          className="mt-2 divide-y divide-gray-200 dark:divide-gray-700"
        >
          {tokens.data.map((token) => (
            <TokenItem
              key={token.id}
              token={token}
              now={now}
              onDelete={() => {
                remove.reset()
                setDeleting(token)
              }}
            />
          ))}
        </ul>
      )}
      {creating && (
        <CreateTokenDialog publisherId={publisherId} onClose={() => setCreating(false)} />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        onClose={() => setDeleting(undefined)}
        title={deleting ? t('manage.tokens.deleteTitle', { name: deleting.name }) : ''}
        confirmLabel={t('manage.tokens.delete')}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(
            { publisherId, tokenId: deleting.id },
            { onSuccess: () => setDeleting(undefined) },
          )
        }}
      >
        {t('manage.tokens.deleteBody')}
      </ConfirmDialog>
    </section>
  )
}
