// A publisher's members (owners only): invite by email, change a role, remove; pending
// invitations can be cancelled. The last owner can be neither demoted nor removed, so a publisher
// always keeps an owner (the server refuses too). The list is the publisher's own query
// (GET /publishers/{id}), which the member calls' paths do not invalidate: each change updates it.
import { useQueryClient } from '@tanstack/react-query'
import { Button, Select } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState, type FormEvent } from 'react'
import {
  PublisherMemberRole,
  type Publisher,
  type PublisherMember,
} from '@/src/api/generated/model'
import {
  getGetPublisherQueryKey,
  useAddPublisherMember,
  useCancelPublisherInvitation,
  useRemovePublisherMember,
  useUpdatePublisherMember,
} from '@/src/api/generated/publishers/publishers'
import { breakable } from '@/components/common/BreakableText'
import { apiErrorMessage } from '@/src/lib/api-error'
import { ConfirmDialog } from './ConfirmDialog'
import { FormMessage, SelectField, TextField } from './fields'
import { CARD, MUTED } from './styles'
import { isEmail } from './validation'

const ROLES = [PublisherMemberRole.owner, PublisherMemberRole.member] as const

/** The member's user id (the path of the member calls). */
function memberUserId(member: PublisherMember): string {
  return member.user?.id ?? member.id
}

/** True when `member` is the publisher's only owner. */
export function isLastOwner(member: PublisherMember, members: PublisherMember[]): boolean {
  return (
    member.role === PublisherMemberRole.owner &&
    members.filter((other) => other.role === PublisherMemberRole.owner).length <= 1
  )
}

/** After a change of members or invitations: the publisher's query shows the new state. */
function usePublisherUpdate(publisherId: string) {
  const queryClient = useQueryClient()
  const key = getGetPublisherQueryKey(publisherId)
  return {
    /** From the publisher the call answered with. */
    set: (publisher: Publisher) => queryClient.setQueryData(key, publisher),
    /** After a call that answers nothing (204). */
    refetch: () => void queryClient.invalidateQueries({ queryKey: key }),
  }
}

function AddMemberForm({ publisherId }: { publisherId: string }) {
  const { t } = useTranslation('common')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<PublisherMemberRole>(PublisherMemberRole.member)
  const [submitted, setSubmitted] = useState(false)
  const [added, setAdded] = useState<string>()
  const add = useAddPublisherMember()
  const update = usePublisherUpdate(publisherId)
  const problem = !email.trim()
    ? t('manage.members.emailRequired')
    : isEmail(email.trim())
      ? undefined
      : t('manage.form.invalidEmail')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    setAdded(undefined)
    if (problem || add.isPending) return
    const address = email.trim()
    add.mutate(
      { publisherId, data: { email: address, role } },
      {
        onSuccess: (publisher) => {
          update.set(publisher)
          setAdded(address)
          setEmail('')
          setSubmitted(false)
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-4">
      <h3 className="text-lg font-semibold">{t('manage.members.addTitle')}</h3>
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <TextField
          type="email"
          label={t('manage.members.email')}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          autoComplete="off"
          hint={t('manage.members.emailHint')}
          error={submitted ? problem : undefined}
        />
        <SelectField
          label={t('manage.members.role')}
          value={role}
          onChange={(event) => setRole(event.target.value as PublisherMemberRole)}
        >
          {ROLES.map((option) => (
            <option key={option} value={option}>
              {t(`manage.roles.${option}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {add.isError && <FormMessage kind="error">{apiErrorMessage(add.error, t)}</FormMessage>}
      {added && (
        <FormMessage kind="success">{t('manage.members.added', { email: added })}</FormMessage>
      )}
      <Button type="submit" color="blue" disabled={add.isPending}>
        {add.isPending ? t('manage.members.adding') : t('manage.members.add')}
      </Button>
    </form>
  )
}

export function MembersSection({
  publisher,
  currentUserId,
}: {
  publisher: Publisher
  currentUserId: string
}) {
  const { t } = useTranslation('common')
  const headingId = useId()
  const lastOwnerHintId = useId()
  const members = publisher.members ?? []
  const [removing, setRemoving] = useState<PublisherMember>()
  const update = usePublisherUpdate(publisher.id)
  const updateRole = useUpdatePublisherMember({
    mutation: { onSuccess: (data) => update.set(data) },
  })
  const remove = useRemovePublisherMember({ mutation: { onSuccess: () => update.refetch() } })
  const cancel = useCancelPublisherInvitation({ mutation: { onSuccess: () => update.refetch() } })
  const invitations = publisher.invitations ?? []
  const nameOf = (member: PublisherMember) =>
    member.user?.name?.trim() || member.user?.email || t('publisher.unnamedMember')

  return (
    <section aria-labelledby={headingId} className={CARD}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t('manage.members.title')}
      </h2>
      <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.members.intro')}</p>
      <p id={lastOwnerHintId} className={`mt-1 text-sm ${MUTED}`}>
        {t('manage.members.lastOwner')}
      </p>
      {updateRole.isError && (
        <div className="mt-3">
          <FormMessage kind="error">{apiErrorMessage(updateRole.error, t)}</FormMessage>
        </div>
      )}
      <ul className="mt-4 divide-y divide-gray-200 dark:divide-gray-700">
        {members.map((member) => {
          const name = nameOf(member)
          const locked = isLastOwner(member, members)
          const userId = memberUserId(member)
          const busy = updateRole.isPending && updateRole.variables?.userId === userId
          return (
            <li key={member.id} className="flex flex-wrap items-center gap-3 py-3">
              {/* At least 12rem: on a phone the name and email get a line, the controls the next. */}
              <div className="min-w-48 flex-1">
                <p className="font-medium break-words">
                  {name}
                  {userId === currentUserId && (
                    <span className={`ml-1 font-normal ${MUTED}`}>{t('manage.members.you')}</span>
                  )}
                </p>
                {member.user?.email && member.user.email !== name && (
                  <p className={`text-sm break-words ${MUTED}`}>{breakable(member.user.email)}</p>
                )}
              </div>
              <Select
                sizing="sm"
                aria-label={t('manage.members.roleOf', { name })}
                aria-describedby={locked ? lastOwnerHintId : undefined}
                value={member.role}
                disabled={locked || busy}
                onChange={(event) =>
                  updateRole.mutate({
                    publisherId: publisher.id,
                    userId,
                    data: { role: event.target.value as PublisherMemberRole },
                  })
                }
              >
                {ROLES.map((option) => (
                  <option key={option} value={option}>
                    {t(`manage.roles.${option}`)}
                  </option>
                ))}
              </Select>
              <Button
                color="light"
                size="sm"
                disabled={locked}
                aria-describedby={locked ? lastOwnerHintId : undefined}
                aria-label={t('manage.members.removeLabel', { name })}
                onClick={() => {
                  remove.reset()
                  setRemoving(member)
                }}
              >
                {t('manage.members.remove')}
              </Button>
            </li>
          )
        })}
      </ul>
      {invitations.length > 0 && (
        <>
          <h3 className="mt-6 text-lg font-semibold">{t('manage.members.invitationsTitle')}</h3>
          {cancel.isError && (
            <div className="mt-3">
              <FormMessage kind="error">{apiErrorMessage(cancel.error, t)}</FormMessage>
            </div>
          )}
          <ul className="mt-2 divide-y divide-gray-200 dark:divide-gray-700">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-48 flex-1">
                  <p className="font-medium break-words">{breakable(invitation.email)}</p>
                  <p className={`text-sm ${MUTED}`}>
                    {t('manage.members.invitedAs', { role: t(`manage.roles.${invitation.role}`) })}
                  </p>
                </div>
                <Button
                  color="light"
                  size="sm"
                  disabled={cancel.isPending}
                  aria-label={t('manage.members.cancelInvitationOf', { email: invitation.email })}
                  onClick={() =>
                    cancel.mutate({ publisherId: publisher.id, invitationId: invitation.id })
                  }
                >
                  {t('manage.members.cancelInvitation')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <AddMemberForm publisherId={publisher.id} />
      <ConfirmDialog
        open={removing !== undefined}
        onClose={() => setRemoving(undefined)}
        title={removing ? t('manage.members.removeTitle', { name: nameOf(removing) }) : ''}
        confirmLabel={t('manage.members.remove')}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(
            { publisherId: publisher.id, userId: memberUserId(removing) },
            { onSuccess: () => setRemoving(undefined) },
          )
        }}
      >
        {t('manage.members.removeBody')}
      </ConfirmDialog>
    </section>
  )
}
