// A node's trusted publishers (owners): the GitHub Actions workflows that may publish it with no
// stored secret, added and removed here; the workflow steps to use are shown with them.
// docs/PUBLISHING.md explains the exchange; the contract is `listTrustedPublishers` and its kin.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useRef, useState, type FormEvent } from 'react'
import { formatDate } from '@/components/node/format'
import type { Node, Publisher, TrustedPublisher } from '@/src/api/generated/model'
import {
  createTrustedPublisherBodyEnvironmentMax as ENVIRONMENT_MAX,
  createTrustedPublisherBodyRepositoryNameMax as NAME_MAX,
  createTrustedPublisherBodyRepositoryNameRegExp as NAME_PATTERN,
  createTrustedPublisherBodyRepositoryOwnerMax as OWNER_MAX,
  createTrustedPublisherBodyRepositoryOwnerRegExp as OWNER_PATTERN,
  createTrustedPublisherBodyWorkflowFilenameMax as WORKFLOW_MAX,
  createTrustedPublisherBodyWorkflowFilenameRegExp as WORKFLOW_PATTERN,
} from '@/src/api/generated/rules.zod'
import {
  useCreateTrustedPublisher,
  useDeleteTrustedPublisher,
  useListTrustedPublishers,
} from '@/src/api/generated/trusted-publishing/trusted-publishing'
import { apiErrorMessage, type Translate } from '@/src/lib/api-error'
import { publicEnv } from '@/src/lib/public-env'
import { githubRepositoryOf, publishSteps } from '@/src/lib/trusted-publishing'
import { ConfirmDialog } from './ConfirmDialog'
import { FormDialog } from './Dialog'
import { FormMessage, TextField } from './fields'
import { LINK, MUTED } from './styles'

type ClaimedNode = Node & { publisher: Publisher }

const CODE_BLOCK =
  'mt-2 overflow-x-auto rounded-md border border-gray-300 bg-gray-50 px-3 py-2 text-xs dark:border-gray-600 dark:bg-gray-900'

/** A field's problem: missing, too long, or not matching the contract's pattern. */
function patternProblem(
  value: string,
  {
    max,
    pattern,
    required,
    invalid,
  }: { max: number; pattern: RegExp; required: string; invalid: string },
  t: Translate,
): string | undefined {
  const trimmed = value.trim()
  if (!trimmed) return required
  if (trimmed.length > max) return t('manage.form.tooLong', { max })
  return pattern.test(trimmed) ? undefined : invalid
}

function AddTrustedPublisherDialog({ node, onClose }: { node: ClaimedNode; onClose: () => void }) {
  const { t } = useTranslation('common')
  const ownerRef = useRef<HTMLInputElement>(null)
  const fromRepository = githubRepositoryOf(node.repository)
  const [owner, setOwner] = useState(fromRepository?.owner ?? '')
  const [name, setName] = useState(fromRepository?.name ?? '')
  const [workflow, setWorkflow] = useState('')
  const [environment, setEnvironment] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const create = useCreateTrustedPublisher()
  const problems = {
    owner: patternProblem(
      owner,
      {
        max: OWNER_MAX,
        pattern: OWNER_PATTERN,
        required: t('manage.trustedPublishing.form.ownerRequired'),
        invalid: t('manage.trustedPublishing.form.ownerInvalid'),
      },
      t,
    ),
    name: patternProblem(
      name,
      {
        max: NAME_MAX,
        pattern: NAME_PATTERN,
        required: t('manage.trustedPublishing.form.nameRequired'),
        invalid: t('manage.trustedPublishing.form.nameInvalid'),
      },
      t,
    ),
    workflow: patternProblem(
      workflow,
      {
        max: WORKFLOW_MAX,
        pattern: WORKFLOW_PATTERN,
        required: t('manage.trustedPublishing.form.workflowRequired'),
        invalid: t('manage.trustedPublishing.form.workflowInvalid'),
      },
      t,
    ),
    environment:
      environment.trim().length > ENVIRONMENT_MAX
        ? t('manage.form.tooLong', { max: ENVIRONMENT_MAX })
        : undefined,
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.values(problems).some(Boolean) || create.isPending) return
    create.mutate(
      {
        publisherId: node.publisher.id,
        nodeId: node.id,
        data: {
          repository_owner: owner.trim(),
          repository_name: name.trim(),
          workflow_filename: workflow.trim(),
          environment: environment.trim() || undefined,
        },
      },
      { onSuccess: onClose },
    )
  }
  const shown = (problem: string | undefined) => (submitted ? problem : undefined)
  return (
    <FormDialog
      onClose={onClose}
      title={t('manage.trustedPublishing.form.title')}
      initialFocus={ownerRef}
      label={t('manage.trustedPublishing.add')}
      pendingLabel={t('manage.trustedPublishing.adding')}
      pending={create.isPending}
      onSubmit={submit}
    >
      <p className={`text-sm ${MUTED}`}>{t('manage.trustedPublishing.form.intro')}</p>
      <TextField
        ref={ownerRef}
        label={t('manage.trustedPublishing.form.owner')}
        value={owner}
        onChange={(event) => setOwner(event.target.value)}
        required
        autoComplete="off"
        spellCheck={false}
        hint={t('manage.trustedPublishing.form.ownerHint')}
        error={shown(problems.owner)}
      />
      <TextField
        label={t('manage.trustedPublishing.form.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        autoComplete="off"
        spellCheck={false}
        error={shown(problems.name)}
      />
      <TextField
        label={t('manage.trustedPublishing.form.workflow')}
        value={workflow}
        onChange={(event) => setWorkflow(event.target.value)}
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="publish.yml"
        hint={t('manage.trustedPublishing.form.workflowHint')}
        error={shown(problems.workflow)}
      />
      <TextField
        label={t('manage.trustedPublishing.form.environment')}
        value={environment}
        onChange={(event) => setEnvironment(event.target.value)}
        optional
        autoComplete="off"
        spellCheck={false}
        hint={t('manage.trustedPublishing.form.environmentHint')}
        error={shown(problems.environment)}
      />
      {create.isError && <FormMessage kind="error">{apiErrorMessage(create.error, t)}</FormMessage>}
    </FormDialog>
  )
}

function TrustedPublisherItem({
  publisher,
  nodeId,
  onRemove,
}: {
  publisher: TrustedPublisher
  nodeId: string
  onRemove: () => void
}) {
  const { t, i18n } = useTranslation('common')
  const repository = `${publisher.repository_owner}/${publisher.repository_name}`
  const stepsId = useId()
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-mono text-sm font-semibold break-all">
            <a
              className={LINK}
              href={`https://github.com/${repository}`}
              rel="noopener noreferrer nofollow"
            >
              {repository}
            </a>
          </h4>
          <dl className="mt-1 grid gap-x-6 gap-y-0.5 text-sm sm:grid-cols-2">
            <div className="flex gap-2">
              <dt className={MUTED}>{t('manage.trustedPublishing.workflow')}:</dt>
              <dd className="font-mono break-all">{publisher.workflow_filename}</dd>
            </div>
            <div className="flex gap-2">
              <dt className={MUTED}>{t('manage.trustedPublishing.environment')}:</dt>
              <dd className="break-all">
                {publisher.environment || t('manage.trustedPublishing.anyEnvironment')}
              </dd>
            </div>
            <div className="flex gap-2">
              <dt className={MUTED}>{t('manage.trustedPublishing.added')}:</dt>
              <dd className="break-all">
                {t('manage.trustedPublishing.addedBy', {
                  date: formatDate(publisher.created_at, i18n.language),
                  who: publisher.created_by,
                })}
              </dd>
            </div>
            <div className="flex gap-2">
              <dt className={MUTED}>{t('manage.trustedPublishing.lastUsed')}:</dt>
              <dd>
                {publisher.last_used_at
                  ? formatDate(publisher.last_used_at, i18n.language)
                  : t('manage.trustedPublishing.neverUsed')}
              </dd>
            </div>
          </dl>
        </div>
        <Button
          color="light"
          size="xs"
          aria-label={t('manage.trustedPublishing.removeLabel', {
            repository,
            workflow: publisher.workflow_filename,
          })}
          onClick={onRemove}
        >
          {t('manage.trustedPublishing.remove')}
        </Button>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-blue-700 dark:text-blue-300">
          {t('manage.trustedPublishing.showSteps')}
        </summary>
        <p id={stepsId} className={`mt-2 ${MUTED}`}>
          {t('manage.trustedPublishing.stepsIntro', { workflow: publisher.workflow_filename })}
        </p>
        <pre className={CODE_BLOCK} aria-describedby={stepsId}>
          <code>
            {publishSteps({
              apiUrl: publicEnv().apiUrl,
              nodeId,
              environment: publisher.environment,
            })}
          </code>
        </pre>
      </details>
    </li>
  )
}

/** The node's trusted publishers, for its owners (on the node page's management panel). */
export function TrustedPublishersSection({ node }: { node: ClaimedNode }) {
  const { t } = useTranslation('common')
  const headingId = useId()
  const [adding, setAdding] = useState(false)
  const [removing, setRemoving] = useState<TrustedPublisher>()
  const list = useListTrustedPublishers(node.publisher.id, node.id)
  const remove = useDeleteTrustedPublisher()

  return (
    <section
      aria-labelledby={headingId}
      className="mt-4 border-t border-blue-200 pt-4 dark:border-gray-700"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="text-base font-semibold">
            {t('manage.trustedPublishing.title')}
          </h3>
          <p className={`mt-1 text-sm ${MUTED}`}>{t('manage.trustedPublishing.intro')}</p>
        </div>
        <Button color="blue" size="sm" onClick={() => setAdding(true)}>
          {t('manage.trustedPublishing.add')}
        </Button>
      </div>
      {list.isPending ? (
        <p role="status" className={`mt-3 text-sm ${MUTED}`}>
          {t('manage.loading')}
        </p>
      ) : list.isError ? (
        <div className="mt-3">
          <FormMessage kind="error">{apiErrorMessage(list.error, t)}</FormMessage>
        </div>
      ) : list.data.length === 0 ? (
        <p className={`mt-3 text-sm ${MUTED}`}>{t('manage.trustedPublishing.none')}</p>
      ) : (
        <ul
          aria-labelledby={headingId}
          className="mt-2 divide-y divide-blue-200 dark:divide-gray-700"
        >
          {list.data.map((publisher) => (
            <TrustedPublisherItem
              key={publisher.id}
              publisher={publisher}
              nodeId={node.id}
              onRemove={() => {
                remove.reset()
                setRemoving(publisher)
              }}
            />
          ))}
        </ul>
      )}
      {adding && <AddTrustedPublisherDialog node={node} onClose={() => setAdding(false)} />}
      <ConfirmDialog
        open={removing !== undefined}
        onClose={() => setRemoving(undefined)}
        title={
          removing
            ? t('manage.trustedPublishing.removeTitle', {
                repository: `${removing.repository_owner}/${removing.repository_name}`,
                workflow: removing.workflow_filename,
              })
            : ''
        }
        confirmLabel={t('manage.trustedPublishing.remove')}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(remove.error, t) : undefined}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(
            { publisherId: node.publisher.id, nodeId: node.id, trustedPublisherId: removing.id },
            { onSuccess: () => setRemoving(undefined) },
          )
        }}
      >
        {t('manage.trustedPublishing.removeBody')}
      </ConfirmDialog>
    </section>
  )
}
