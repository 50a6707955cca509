// Add a node nobody has claimed yet (POST /admin/nodes): without a publisher id it goes under the
// reserved publisher of unclaimed nodes, and the owner of its repository can claim it on its page.
// The id is checked as it is typed: its format against the contract's rule, then, once typing
// pauses, whether a node already has it (GET /nodes/{id}: 404 means free; ids ignore case).
import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'flowbite-react'
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { parseTags } from '@/components/manage/EditNodeDialog'
import { DescriptionField, FormMessage, TextField } from '@/components/manage/fields'
import { DESCRIPTION_MAX_LENGTH } from '@/components/manage/limits'
import { LINK, MUTED } from '@/components/manage/styles'
import { useDebouncedValue } from '@/components/manage/useDebouncedValue'
import { noProblems, textProblem, urlProblem } from '@/components/manage/validation'
import { useAdminCreateNode } from '@/src/api/generated/admin/admin'
import type { Node } from '@/src/api/generated/model'
import { useGetNode } from '@/src/api/generated/nodes/nodes'
import {
  adminCreateNodeBodyIdMax as ID_MAX,
  adminCreateNodeBodyIdRegExp as ID_PATTERN,
  adminCreateNodeBodyNameMax as NAME_MAX,
  adminCreateNodeBodyPublisherIdMaxOne as PUBLISHER_ID_MAX,
  adminCreateNodeBodyPublisherIdRegExpOne as PUBLISHER_ID_PATTERN,
  adminCreateNodeBodyTagsItemMax as TAG_MAX,
  adminCreateNodeBodyTagsMax as TAGS_MAX,
} from '@/src/api/generated/rules.zod'
import { apiErrorMessage, errorStatus, serverMessage, type Translate } from '@/src/lib/api-error'
import { PUBLISHER_ID_CHECK_DEBOUNCE_MS } from '@/src/lib/constants'
import { ADMIN_PATHS, nodePath } from '@/src/lib/paths'
import { invalidateAfterNodeChange } from '@/src/api/invalidation'
import { adminListHref } from './list-filters'

/** The same pause as the publisher id check of the create-publisher form. */
const ID_CHECK_DEBOUNCE_MS = PUBLISHER_ID_CHECK_DEBOUNCE_MS

type Field = 'id' | 'name' | 'repository' | 'description' | 'tags' | 'publisherId'
type Availability = 'empty' | 'invalid' | 'checking' | 'available' | 'taken' | 'unknown'

/** Which rule of the contract's node id pattern a typed id breaks, explained. */
export function nodeIdProblem(id: string, t: Translate): string | undefined {
  if (!id) return undefined
  if (id.length > ID_MAX) return t('manage.form.tooLong', { max: ID_MAX })
  if (ID_PATTERN.test(id)) return undefined
  return /[^A-Za-z0-9._-]/.test(id) ? t('admin.addNode.idCharacters') : t('admin.addNode.idEdges')
}

function publisherIdProblem(id: string, t: Translate): string | undefined {
  if (!id) return undefined
  if (id.length > PUBLISHER_ID_MAX) return t('manage.form.tooLong', { max: PUBLISHER_ID_MAX })
  return PUBLISHER_ID_PATTERN.test(id) ? undefined : t('admin.addNode.publisherIdFormat')
}

/**
 * The field a refusal of the API is about: 400 `Invalid field 'x': …`, 409 for a taken id or
 * repository, 404 for an unknown publisher. Undefined: shown for the whole form.
 */
function refusedField(error: unknown): Field | undefined {
  const message = serverMessage(error) ?? ''
  const status = errorStatus(error)
  const named = /^Invalid field '([a-z_]+)'/.exec(message)?.[1]
  if (status === 400 && named) {
    const fields: Record<string, Field> = {
      id: 'id',
      name: 'name',
      repository: 'repository',
      description: 'description',
      tags: 'tags',
      publisher_id: 'publisherId',
    }
    return fields[named]
  }
  if (status === 409) return /repository/i.test(message) ? 'repository' : 'id'
  if (status === 404) return 'publisherId'
  return undefined
}

const EMPTY = { id: '', name: '', repository: '', description: '', tags: '', publisherId: '' }

export function AddNodeForm() {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const [values, setValues] = useState(EMPTY)
  const [submitted, setSubmitted] = useState(false)
  const [refusal, setRefusal] = useState<{ field?: Field; message: string }>()
  const [created, setCreated] = useState<Node>()
  const create = useAdminCreateNode()

  const id = values.id.trim()
  const idFormat = nodeIdProblem(id, t)
  const debouncedId = useDebouncedValue(id, ID_CHECK_DEBOUNCE_MS)
  const checkable = debouncedId !== '' && nodeIdProblem(debouncedId, t) === undefined
  const check = useGetNode(debouncedId, undefined, {
    query: {
      // A free id answers 404. A taken one may be a banned or deleted node, which is never
      // persisted (src/api/persist.ts isHiddenNode).
      enabled: checkable,
      retry: false,
    },
  })
  const availability: Availability =
    id === ''
      ? 'empty'
      : idFormat
        ? 'invalid'
        : id !== debouncedId || check.isFetching || check.isPending
          ? 'checking'
          : check.isSuccess
            ? 'taken'
            : errorStatus(check.error) === 404
              ? 'available'
              : 'unknown'

  const set = (field: Field) => (event: { target: { value: string } }) => {
    if (refusal?.field === field) setRefusal(undefined)
    setValues((current) => ({ ...current, [field]: event.target.value }))
  }

  const tags = parseTags(values.tags)
  const problems: Record<Field, string | undefined> = {
    id:
      idFormat ??
      (availability === 'taken'
        ? t('admin.addNode.idTaken', { id })
        : submitted && availability === 'empty'
          ? t('admin.addNode.idRequired')
          : undefined),
    name: textProblem(values.name, { max: NAME_MAX, required: t('admin.addNode.nameRequired') }, t),
    repository: values.repository.trim()
      ? urlProblem(values.repository, t)
      : t('admin.addNode.repositoryRequired'),
    description: textProblem(values.description, { max: DESCRIPTION_MAX_LENGTH }, t),
    tags:
      tags.length > TAGS_MAX
        ? t('manage.node.tooManyTags', { max: TAGS_MAX })
        : tags.some((tag) => tag.length > TAG_MAX)
          ? t('manage.node.tagTooLong', { max: TAG_MAX })
          : undefined,
    publisherId: publisherIdProblem(values.publisherId.trim(), t),
  }
  /** The id's problems show at once; the others after a first submit. The API's refusal wins. */
  const errorOf = (field: Field) =>
    refusal?.field === field
      ? refusal.message
      : field === 'id' || submitted
        ? problems[field]
        : undefined
  const canSubmit = !create.isPending && availability !== 'checking' && availability !== 'taken'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!canSubmit || !noProblems(problems)) return
    setRefusal(undefined)
    const optional = (value: string) => value.trim() || undefined
    create.mutate(
      {
        data: {
          id,
          name: values.name.trim(),
          repository: values.repository.trim(),
          description: optional(values.description),
          tags: tags.length > 0 ? tags : undefined,
          publisher_id: optional(values.publisherId),
        },
      },
      {
        onSuccess: (node) => {
          void invalidateAfterNodeChange(queryClient, node.id, node.publisher.id)
          setCreated(node)
        },
        onError: (error) =>
          setRefusal({ field: refusedField(error), message: apiErrorMessage(error, t) }),
      },
    )
  }

  const again = () => {
    setCreated(undefined)
    setValues(EMPTY)
    setSubmitted(false)
    create.reset()
  }

  if (created) return <Created node={created} onAgain={again} />

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl space-y-5">
      <p className={MUTED}>{t('admin.addNode.intro')}</p>
      <TextField
        label={t('admin.addNode.id')}
        value={values.id}
        onChange={set('id')}
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint={t('admin.addNode.idHint', { max: ID_MAX })}
        error={errorOf('id')}
      />
      <p role="status" aria-live="polite" className="-mt-3 min-h-5 text-sm">
        {availability === 'checking' && (
          <span className="text-gray-700 dark:text-gray-300">{t('admin.addNode.checking')}</span>
        )}
        {availability === 'available' && refusal?.field !== 'id' && (
          <span className="text-green-800 dark:text-green-300">
            {t('admin.addNode.available', { id })}
          </span>
        )}
        {availability === 'unknown' && (
          <span className="text-gray-700 dark:text-gray-300">{t('admin.addNode.checkFailed')}</span>
        )}
      </p>
      <TextField
        label={t('admin.addNode.name')}
        value={values.name}
        onChange={set('name')}
        required
        error={errorOf('name')}
      />
      <TextField
        type="url"
        label={t('admin.addNode.repository')}
        value={values.repository}
        onChange={set('repository')}
        required
        placeholder="https://github.com/…"
        hint={t('admin.addNode.repositoryHint')}
        error={errorOf('repository')}
      />
      <DescriptionField
        value={values.description}
        onChange={set('description')}
        error={errorOf('description')}
      />
      <TextField
        label={t('admin.addNode.tags')}
        value={values.tags}
        onChange={set('tags')}
        optional
        autoComplete="off"
        hint={t('manage.node.tagsHint')}
        error={errorOf('tags')}
      />
      <TextField
        label={t('admin.addNode.publisherId')}
        value={values.publisherId}
        onChange={set('publisherId')}
        optional
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint={t('admin.addNode.publisherIdHint')}
        error={errorOf('publisherId')}
      />
      {refusal && !refusal.field && <FormMessage kind="error">{refusal.message}</FormMessage>}
      <Button type="submit" color="blue" disabled={!canSubmit}>
        {create.isPending ? t('admin.addNode.submitting') : t('admin.addNode.submit')}
      </Button>
    </form>
  )
}

/** The created node: where to see it (and claim it), and on to the next. */
function Created({ node, onAgain }: { node: Node; onAgain: () => void }) {
  const { t } = useTranslation('common')
  const heading = useRef<HTMLHeadingElement>(null)
  // The form is gone: move focus to the outcome so keyboard and screen reader users follow.
  useEffect(() => heading.current?.focus(), [])
  return (
    <section
      aria-labelledby="add-node-created"
      className="max-w-2xl rounded-lg border border-green-300 bg-green-50 p-4 dark:border-green-700 dark:bg-green-950"
    >
      <h2
        id="add-node-created"
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold text-green-900 focus:outline-none dark:text-green-100"
      >
        {t('admin.addNode.created', { id: node.id })}
      </h2>
      <p className="mt-2 text-sm text-green-900 dark:text-green-100">
        {t('admin.addNode.createdBody', { publisher: node.publisher.name })}
      </p>
      <ul className="mt-3 space-y-1 text-sm">
        <li>
          <Link href={nodePath(node.id)} className={LINK}>
            {t('admin.addNode.viewNode')}
          </Link>
        </li>
        <li>
          <Link
            href={adminListHref(ADMIN_PATHS.nodes, { q: node.id, banned: false, page: 1 })}
            className={LINK}
          >
            {t('admin.addNode.viewList')}
          </Link>
        </li>
      </ul>
      <Button color="light" className="mt-4" onClick={onAgain}>
        {t('admin.addNode.again')}
      </Button>
    </section>
  )
}
