// The settings page body of a publisher (owners): profile, members, tokens, the audit trail and
// deletion.
// Everyone else is told that only owners can change the settings.
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { breakable } from '@/components/common/BreakableText'
import type { Publisher } from '@/src/api/generated/model'
import {
  useDeletePublisher,
  useGetPermissionOnPublisher,
  useGetPublisher,
} from '@/src/api/generated/publishers/publishers'
import { apiErrorMessage } from '@/src/lib/api-error'
import { ConfirmDialog } from './ConfirmDialog'
import { FormMessage } from './fields'
import { MembersSection } from './MembersSection'
import { PublisherProfileForm } from './PublisherProfileForm'
import { LINK, MUTED } from './styles'
import { TokensSection } from './TokensSection'
import { PublisherEvents } from './PublisherEvents'
import { publisherPath } from '@/src/lib/paths'

function DeletePublisherSection({ publisher }: { publisher: Publisher }) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const headingId = useId()
  const [open, setOpen] = useState(false)
  const remove = useDeletePublisher()
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-red-300 bg-white p-4 sm:p-6 dark:border-red-800 dark:bg-gray-800"
    >
      <h2 id={headingId} className="text-xl font-semibold text-red-800 dark:text-red-300">
        {t('manage.deletePublisher.title')}
      </h2>
      <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.deletePublisher.body')}</p>
      <Button
        color="red"
        className="mt-4"
        onClick={() => {
          remove.reset()
          setOpen(true)
        }}
      >
        {t('manage.deletePublisher.button')}
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('manage.deletePublisher.confirmTitle', { name: publisher.name })}
        confirmLabel={t('manage.deletePublisher.button')}
        confirmText={publisher.id}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() =>
          remove.mutate(
            { publisherId: publisher.id },
            { onSuccess: () => void router.push('/nodes') },
          )
        }
      >
        {t('manage.deletePublisher.confirmBody')}
      </ConfirmDialog>
    </section>
  )
}

export function PublisherSettings({
  publisherId,
  currentUserId,
}: {
  publisherId: string
  currentUserId: string
}) {
  const { t } = useTranslation('common')
  const publisher = useGetPublisher(publisherId)
  const permission = useGetPermissionOnPublisher(publisherId)

  if (publisher.isPending || permission.isPending) {
    return (
      <p role="status" className={`mt-6 ${MUTED}`}>
        {t('manage.loading')}
      </p>
    )
  }
  if (publisher.isError || permission.isError) {
    return (
      <>
        <h1 className="text-2xl font-bold sm:text-3xl">{t('manage.settings.titleFallback')}</h1>
        <div className="mt-6">
          <FormMessage kind="error">
            {apiErrorMessage(publisher.error ?? permission.error, t)}
          </FormMessage>
        </div>
      </>
    )
  }
  const title = t('manage.settings.title', { name: publisher.data.name })
  return (
    <>
      <p className="text-sm">
        <Link href={publisherPath(publisherId)} className={LINK}>
          {t('manage.settings.back')}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words sm:text-3xl">{title}</h1>
      <p className={`mt-1 font-mono text-sm break-words ${MUTED}`}>
        {breakable(`@${publisher.data.id}`)}
      </p>
      {permission.data.canEdit ? (
        <div className="mt-6 space-y-6">
          <PublisherProfileForm key={publisher.data.id} publisher={publisher.data} />
          <MembersSection publisher={publisher.data} currentUserId={currentUserId} />
          <TokensSection publisherId={publisher.data.id} />
          <PublisherEvents publisherId={publisher.data.id} />
          <DeletePublisherSection publisher={publisher.data} />
        </div>
      ) : (
        <div className="mt-6">
          <FormMessage kind="error">{t('manage.settings.notAllowed')}</FormMessage>
        </div>
      )}
    </>
  )
}
