// The signed-in user's invitations to join publishers (on Your Nodes): accept or decline each.
// Invitations go to verified addresses only; with an unverified one the user can ask for the
// verification email here.
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import type { MyInvitation } from '@/src/api/generated/model'
import {
  getListMyInvitationsQueryKey,
  getListPublishersForUserQueryKey,
  useAcceptPublisherInvitation,
  useDeclinePublisherInvitation,
  useListMyInvitations,
} from '@/src/api/generated/users/users'
import { apiErrorMessage } from '@/src/lib/api-error'
import { useAuth } from '@/src/lib/auth'
import { loadFirebase } from '@/src/lib/firebase-loader'
import { formatDate } from '@/components/node/format'
import { FormMessage } from './fields'
import { CARD, MUTED } from './styles'

function VerifyEmail({ email }: { email: string }) {
  const { t } = useTranslation('common')
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | { error: string }>('idle')
  const send = async () => {
    setState('sending')
    try {
      await (await loadFirebase()).sendVerificationEmail()
      setState('sent')
    } catch (error) {
      setState({ error: error instanceof Error ? error.message : String(error) })
    }
  }
  return (
    <div className={`mt-6 ${CARD}`}>
      <p className={MUTED}>{t('manage.invitations.unverified', { email })}</p>
      {state === 'sent' ? (
        <div className="mt-3">
          <FormMessage kind="success">
            {t('manage.invitations.verificationSent', { email })}
          </FormMessage>
        </div>
      ) : (
        <Button
          className="mt-3"
          color="light"
          disabled={state === 'sending'}
          onClick={() => void send()}
        >
          {t('manage.invitations.sendVerification')}
        </Button>
      )}
      {typeof state === 'object' && (
        <div className="mt-3">
          <FormMessage kind="error">
            {t('manage.invitations.verificationFailed', { message: state.error })}
          </FormMessage>
        </div>
      )}
    </div>
  )
}

function InvitationItem({ invitation }: { invitation: MyInvitation }) {
  const { t, i18n } = useTranslation('common')
  const queryClient = useQueryClient()
  const accept = useAcceptPublisherInvitation()
  const decline = useDeclinePublisherInvitation()
  const publisher = invitation.publisher.name || invitation.publisher.id
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: getListMyInvitationsQueryKey() })
    void queryClient.invalidateQueries({ queryKey: getListPublishersForUserQueryKey() })
  }
  const busy = accept.isPending || decline.isPending
  const failure = accept.error ?? decline.error
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center gap-3">
        <div className="min-w-48 flex-1">
          <p className="font-medium break-words">
            {t('manage.invitations.to', {
              publisher,
              role: t(`manage.roles.${invitation.role}`),
            })}
          </p>
          <p className={`text-sm ${MUTED}`}>
            {t('manage.invitations.expires', {
              date: formatDate(invitation.expiresAt, i18n.language),
            })}
          </p>
        </div>
        <Button
          color="blue"
          size="sm"
          disabled={busy}
          aria-label={t('manage.invitations.acceptOf', { publisher })}
          onClick={() => accept.mutate({ invitationId: invitation.id }, { onSuccess: done })}
        >
          {t('manage.invitations.accept')}
        </Button>
        <Button
          color="light"
          size="sm"
          disabled={busy}
          aria-label={t('manage.invitations.declineOf', { publisher })}
          onClick={() => decline.mutate({ invitationId: invitation.id }, { onSuccess: done })}
        >
          {t('manage.invitations.decline')}
        </Button>
      </div>
      {failure && (
        <div className="mt-2">
          <FormMessage kind="error">{apiErrorMessage(failure, t)}</FormMessage>
        </div>
      )}
    </li>
  )
}

export function Invitations() {
  const { t } = useTranslation('common')
  const headingId = useId()
  const { user } = useAuth()
  const unverified = Boolean(user?.email) && user?.emailVerified === false
  const invitations = useListMyInvitations({ query: { enabled: Boolean(user) && !unverified } })
  if (unverified && user?.email) return <VerifyEmail email={user.email} />
  if (!invitations.data?.length) return null
  return (
    <section aria-labelledby={headingId} className={`mt-6 ${CARD}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t('manage.invitations.title')}
      </h2>
      <ul className="mt-2 divide-y divide-gray-200 dark:divide-gray-700">
        {invitations.data.map((invitation) => (
          <InvitationItem key={invitation.id} invitation={invitation} />
        ))}
      </ul>
    </section>
  )
}
