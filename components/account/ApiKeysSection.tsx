// The signed-in customer's API keys (GET /customers/api-keys), for ComfyUI's partner nodes: the
// list (by prefix, never the secret), creation in a modal that shows the key exactly once, and
// deletion after a confirmation. Creating the first key also opens the credit account.
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { ConfirmDialog } from '@/components/manage/ConfirmDialog'
import { LoadError } from '@/components/manage/fields'
import { CreateSecretDialog } from '@/components/manage/SecretDialog'
import { CARD, MUTED } from '@/components/manage/styles'
import { formatDate } from '@/components/node/format'
import {
  useCreateCustomerApiKey,
  useDeleteCustomerApiKey,
  useListCustomerApiKeys,
} from '@/src/api/generated/customers/customers'
import type { ApiKey } from '@/src/api/generated/model'
import {
  createCustomerApiKeyBodyDescriptionMax as DESCRIPTION_MAX,
  createCustomerApiKeyBodyNameMax as NAME_MAX,
} from '@/src/api/generated/rules.zod'
import { invalidateWhere } from '@/src/api/invalidation'
import { apiErrorMessage } from '@/src/lib/api-error'

/** Keys are ledger events, and the first opens the account: the customer's own views are stale. */
function invalidateAccount(queryClient: QueryClient): Promise<void> {
  return invalidateWhere(queryClient, (path) => path.startsWith('/customers/'))
}

/** The create-key modal, mounted only while open (see CreateSecretDialog). */
function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const create = useCreateCustomerApiKey({ mutation: { gcTime: 0 } })
  const created = create.data
  return (
    <CreateSecretDialog
      section="account.keys"
      nameMax={NAME_MAX}
      descriptionMax={DESCRIPTION_MAX}
      pending={create.isPending}
      error={create.isError ? apiErrorMessage(create.error, t) : undefined}
      created={created?.key ? { name: created.name, secret: created.key } : undefined}
      onCreate={(data) =>
        create.mutate({ data }, { onSuccess: () => void invalidateAccount(queryClient) })
      }
      onClose={() => {
        create.reset()
        onClose()
      }}
    />
  )
}

function KeyItem({ apiKey, onDelete }: { apiKey: ApiKey; onDelete: () => void }) {
  const { t, i18n } = useTranslation('common')
  const date = (value: string | undefined) =>
    value ? <time dateTime={value}>{formatDate(value, i18n.language)}</time> : undefined
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words">{apiKey.name}</h3>
          {apiKey.description && (
            <p className={`text-sm break-words ${MUTED}`}>{apiKey.description}</p>
          )}
        </div>
        <Button
          color="light"
          size="sm"
          aria-label={t('account.keys.deleteLabel', { name: apiKey.name })}
          onClick={onDelete}
        >
          {t('account.keys.delete')}
        </Button>
      </div>
      <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div className="flex gap-2">
          <dt className={MUTED}>{t('account.keys.prefix')}:</dt>
          <dd className="min-w-0 font-mono break-words">
            {apiKey.key_prefix ? `${apiKey.key_prefix}…` : '—'}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className={MUTED}>{t('account.keys.created')}:</dt>
          <dd>{date(apiKey.createdAt)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={MUTED}>{t('account.keys.lastUsed')}:</dt>
          <dd>{date(apiKey.lastUsedAt) ?? t('account.keys.neverUsed')}</dd>
        </div>
      </dl>
    </li>
  )
}

export function ApiKeysSection() {
  const { t } = useTranslation('common')
  const headingId = useId()
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<ApiKey>()
  const queryClient = useQueryClient()
  const keys = useListCustomerApiKeys()
  const remove = useDeleteCustomerApiKey()

  return (
    <section aria-labelledby={headingId} className={CARD}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-xl font-semibold text-gray-900 dark:text-white">
            {t('account.keys.title')}
          </h2>
          <p className={`mt-1 text-sm ${MUTED}`}>{t('account.keys.intro')}</p>
        </div>
        <Button color="blue" onClick={() => setCreating(true)}>
          {t('account.keys.create')}
        </Button>
      </div>
      {keys.isPending ? (
        <p role="status" className={`mt-4 ${MUTED}`}>
          {t('account.keys.loading')}
        </p>
      ) : keys.isError ? (
        <div className="mt-4">
          <LoadError
            message={t('account.keys.loadError')}
            error={keys.error}
            onRetry={() => void keys.refetch()}
            className="space-y-2"
            size="sm"
          />
        </div>
      ) : keys.data.length === 0 ? (
        <p className={`mt-4 ${MUTED}`}>{t('account.keys.none')}</p>
      ) : (
        <ul
          aria-label={t('account.keys.title')}
          className="mt-2 divide-y divide-gray-200 dark:divide-gray-700"
        >
          {keys.data.map((apiKey) => (
            <KeyItem
              key={apiKey.id}
              apiKey={apiKey}
              onDelete={() => {
                remove.reset()
                setDeleting(apiKey)
              }}
            />
          ))}
        </ul>
      )}
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} />}
      <ConfirmDialog
        open={deleting !== undefined}
        onClose={() => setDeleting(undefined)}
        title={deleting ? t('account.keys.deleteTitle', { name: deleting.name }) : ''}
        confirmLabel={t('account.keys.delete')}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(
            { keyId: deleting.id },
            {
              onSuccess: () => {
                setDeleting(undefined)
                void invalidateAccount(queryClient)
              },
            },
          )
        }}
      >
        {t('account.keys.deleteBody')}
      </ConfirmDialog>
    </section>
  )
}
