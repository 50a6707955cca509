// "Claim this node" on an unclaimed node (src/lib/unclaimed.ts), for signed-in users: choose one of
// your publishers and prove with a GitHub token that you maintain the node's repository.
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState, type FormEvent } from 'react'
import { NodeStatus, type Node } from '@/src/api/generated/model'
import { useClaimMyNode } from '@/src/api/generated/nodes/nodes'
import { useListPublishersForUser } from '@/src/api/generated/users/users'
import { apiErrorMessage } from '@/src/lib/api-error'
import { useAuth } from '@/src/lib/auth'
import { isUnclaimed } from '@/src/lib/unclaimed'
import { Dialog, FormDialogActions } from './Dialog'
import { FormMessage, SelectField, TextField } from './fields'
import { revalidateNodePage } from './revalidate'
import { LINK, MUTED } from './styles'
import { CREATE_PUBLISHER_PATH, nodePath } from '@/src/lib/paths'

function ClaimDialog({ node, onClose }: { node: Node; onClose: () => void }) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const queryClient = useQueryClient()
  const formId = useId()
  const publishers = useListPublishersForUser()
  const [publisherId, setPublisherId] = useState('')
  const [token, setToken] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const claim = useClaimMyNode()
  const chosen = publisherId || publishers.data?.[0]?.id || ''
  const tokenProblem = token.trim() ? undefined : t('manage.claim.tokenRequired')
  const pagePath = nodePath(node.id)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (tokenProblem || !chosen || claim.isPending) return
    claim.mutate(
      { publisherId: chosen, nodeId: node.id, data: { GH_TOKEN: token.trim() } },
      {
        onSuccess: () => {
          setToken('')
          void queryClient.invalidateQueries({ queryKey: [`/nodes/${node.id}`] })
          onClose()
          void revalidateNodePage(node.id).then(() => router.replace(pagePath))
        },
      },
    )
  }

  const noPublishers = publishers.isSuccess && publishers.data.length === 0
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('manage.claim.title')}
      footer={
        <FormDialogActions
          formId={formId}
          onCancel={onClose}
          label={t('manage.claim.submit')}
          pendingLabel={t('manage.claim.submitting')}
          pending={claim.isPending}
          disabled={!publishers.isSuccess}
          submit={!noPublishers}
        />
      }
    >
      {publishers.isPending ? (
        <p role="status" className={MUTED}>
          {t('manage.loading')}
        </p>
      ) : publishers.isError ? (
        <FormMessage kind="error">{apiErrorMessage(publishers.error, t)}</FormMessage>
      ) : noPublishers ? (
        <p className={MUTED}>
          {t('manage.claim.noPublishers')}{' '}
          <Link href={CREATE_PUBLISHER_PATH} className={LINK}>
            {t('manage.yourNodes.createPublisher')}
          </Link>
        </p>
      ) : (
        <form id={formId} onSubmit={submit} noValidate className="space-y-4">
          <SelectField
            label={t('manage.claim.publisher')}
            value={chosen}
            onChange={(event) => setPublisherId(event.target.value)}
          >
            {publishers.data.map((publisher) => (
              <option key={publisher.id} value={publisher.id}>
                {publisher.name} (@{publisher.id})
              </option>
            ))}
          </SelectField>
          <TextField
            type="password"
            label={t('manage.claim.token')}
            value={token}
            onChange={(event) => setToken(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            hint={t('manage.claim.tokenHint', {
              repository: node.repository || t('manage.claim.theRepository'),
            })}
            error={submitted ? tokenProblem : undefined}
          />
          {claim.isError && (
            <FormMessage kind="error">{apiErrorMessage(claim.error, t)}</FormMessage>
          )}
        </form>
      )}
    </Dialog>
  )
}

/** Shown on an unclaimed, active node to signed-in users. */
export function ClaimNode({ node }: { node: Node }) {
  const { t } = useTranslation('common')
  const { user } = useAuth()
  const headingId = useId()
  const [open, setOpen] = useState(false)
  if (!user || !isUnclaimed(node) || node.status !== NodeStatus.NodeStatusActive) return null
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-700 dark:bg-gray-800"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {t('manage.claim.heading')}
      </h2>
      <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.claim.intro')}</p>
      <Button color="blue" size="sm" className="mt-3" onClick={() => setOpen(true)}>
        {t('manage.claim.title')}
      </Button>
      {open && <ClaimDialog node={node} onClose={() => setOpen(false)} />}
    </section>
  )
}
