// Personal access tokens of a publisher (owners): the list (by public id, never the secret),
// creation in a modal that shows the secret exactly once, and deletion.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
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
import { FormMessage, SelectField } from './fields'
import { CreateSecretDialog } from './SecretDialog'
import { CARD, MUTED } from './styles'

/** The expiry choices of the contract, in days, and "never" (no expiry). */
export const TOKEN_EXPIRY_CHOICES = [...Object.values(ExpiresInDays), 'never'] as const
type ExpiryChoice = (typeof TOKEN_EXPIRY_CHOICES)[number]
const DEFAULT_EXPIRY: ExpiryChoice = ExpiresInDays.NUMBER_90

/** The create-token modal, mounted only while open (see CreateSecretDialog). */
export function CreateTokenDialog({
  publisherId,
  onClose,
}: {
  publisherId: string
  onClose: () => void
}) {
  const { t } = useTranslation('common')
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY)
  const create = useCreatePersonalAccessToken({ mutation: { gcTime: 0 } })
  return (
    <CreateSecretDialog
      section="manage.tokens"
      nameMax={TOKEN_NAME_MAX_LENGTH}
      descriptionMax={DESCRIPTION_MAX_LENGTH}
      pending={create.isPending}
      error={create.isError ? apiErrorMessage(create.error, t) : undefined}
      created={create.data && { name: create.data.name, secret: create.data.token }}
      onCreate={(values) =>
        create.mutate({
          publisherId,
          data: { ...values, expires_in_days: expiry === 'never' ? null : expiry },
        })
      }
      onClose={() => {
        create.reset()
        onClose()
      }}
    >
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
    </CreateSecretDialog>
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
