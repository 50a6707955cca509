// The admin fields of a node: admin tags, search ranking, preempted ComfyUI node names and
// category. PUT /admin/nodes/{id} leaves omitted fields unchanged, so only the changed ones are
// sent; the contract's limits (src/api/generated/rules.zod.ts) are checked before sending.
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { FormDialog } from '@/components/manage/Dialog'
import { FormMessage, TextAreaField, TextField } from '@/components/manage/fields'
import { noProblems, textProblem } from '@/components/manage/validation'
import { Badge } from '@/components/node/Badge'
import { useAdminUpdateNode } from '@/src/api/generated/admin/admin'
import type { AdminUpdateNodeRequest, Node } from '@/src/api/generated/model'
import {
  adminUpdateNodeBodyCategoryMax as CATEGORY_MAX,
  adminUpdateNodeBodyPreemptedComfyNodeNamesItemMax as PREEMPTED_ITEM_MAX,
  adminUpdateNodeBodyPreemptedComfyNodeNamesMax as PREEMPTED_MAX,
  adminUpdateNodeBodySearchRankingMax as RANKING_MAX,
  adminUpdateNodeBodySearchRankingMin as RANKING_MIN,
  adminUpdateNodeBodyTagsAdminItemMax as TAG_ITEM_MAX,
  adminUpdateNodeBodyTagsAdminMax as TAGS_MAX,
} from '@/src/api/generated/rules.zod'
import { apiErrorMessage, type Translate } from '@/src/lib/api-error'
import { invalidateAfterNodeChange } from '@/src/api/invalidation'
import { listProblem, parseCommaList, parseLineList, sameList } from './lists'

type Ranking = { value: number | undefined; problem?: string }

/** The typed ranking: a whole number within the contract's bounds, or empty when none is set. */
export function parseRanking(text: string, current: number | undefined, t: Translate): Ranking {
  const trimmed = text.trim()
  if (!trimmed) {
    // The contract has no way to remove a ranking: an omitted field stays as it is.
    return current === undefined
      ? { value: undefined }
      : { value: current, problem: t('admin.nodes.fields.rankingRequired') }
  }
  const range = { min: RANKING_MIN, max: RANKING_MAX }
  if (!/^[-+]?\d+$/.test(trimmed)) {
    return { value: undefined, problem: t('admin.nodes.fields.rankingInteger', range) }
  }
  const value = Number(trimmed)
  if (value < RANKING_MIN || value > RANKING_MAX) {
    return { value: undefined, problem: t('admin.nodes.fields.rankingRange', range) }
  }
  return { value }
}

export interface AdminFieldsDialogProps {
  node: Node
  onClose: () => void
  onSaved: (node: Node) => void
}

export function AdminFieldsDialog({ node, onClose, onSaved }: AdminFieldsDialogProps) {
  const { t } = useTranslation('common')
  const queryClient = useQueryClient()
  const update = useAdminUpdateNode()
  const [values, setValues] = useState({
    tags: (node.tags_admin ?? []).join(', '),
    ranking: node.search_ranking === undefined ? '' : String(node.search_ranking),
    preempted: (node.preempted_comfy_node_names ?? []).join('\n'),
    category: node.category ?? '',
  })
  const [submitted, setSubmitted] = useState(false)
  const [unchanged, setUnchanged] = useState(false)
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setUnchanged(false)
    setValues((current) => ({ ...current, [field]: event.target.value }))
  }

  const tags = parseCommaList(values.tags)
  const preempted = parseLineList(values.preempted)
  const ranking = parseRanking(values.ranking, node.search_ranking, t)
  const problems = {
    tags: listProblem(tags, { maxItems: TAGS_MAX, maxLength: TAG_ITEM_MAX }, t),
    ranking: ranking.problem,
    preempted: listProblem(
      preempted,
      { maxItems: PREEMPTED_MAX, maxLength: PREEMPTED_ITEM_MAX },
      t,
    ),
    category: textProblem(values.category.trim(), { max: CATEGORY_MAX }, t),
  }
  const shown = (problem: string | undefined) => (submitted ? problem : undefined)

  /** Only what differs from the node as loaded. */
  const changes = (): AdminUpdateNodeRequest => {
    const data: AdminUpdateNodeRequest = {}
    if (!sameList(tags, node.tags_admin ?? [])) data.tags_admin = tags
    if (ranking.value !== undefined && ranking.value !== node.search_ranking) {
      data.search_ranking = ranking.value
    }
    if (!sameList(preempted, node.preempted_comfy_node_names ?? [])) {
      data.preempted_comfy_node_names = preempted
    }
    const category = values.category.trim()
    if (category !== (node.category ?? '')) data.category = category
    return data
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!noProblems(problems) || update.isPending) return
    const data = changes()
    if (Object.keys(data).length === 0) {
      setUnchanged(true)
      return
    }
    update.mutate(
      { nodeId: node.id, data },
      {
        onSuccess: (saved) => {
          void invalidateAfterNodeChange(queryClient, node.id, node.publisher.id)
          onSaved(saved)
        },
      },
    )
  }

  return (
    <FormDialog
      onClose={onClose}
      size="2xl"
      title={t('admin.nodes.fields.title', { id: node.id })}
      pending={update.isPending}
      onSubmit={submit}
      formClassName="space-y-5"
    >
      <div>
        <TextField
          label={t('admin.nodes.fields.tagsAdmin')}
          value={values.tags}
          onChange={set('tags')}
          optional
          autoComplete="off"
          spellCheck={false}
          hint={t('admin.nodes.fields.tagsAdminHint', { max: TAGS_MAX })}
          error={shown(problems.tags)}
        />
        {tags.length > 0 && (
          <ul
            aria-label={t('admin.nodes.fields.tagsPreview')}
            className="mt-2 flex flex-wrap gap-1"
          >
            {tags.map((tag) => (
              <li key={tag}>
                <Badge tone="yellow">{tag}</Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
      <TextField
        label={t('admin.nodes.fields.searchRanking')}
        value={values.ranking}
        onChange={set('ranking')}
        inputMode="numeric"
        autoComplete="off"
        optional={node.search_ranking === undefined}
        hint={t('admin.nodes.fields.searchRankingHint', { min: RANKING_MIN, max: RANKING_MAX })}
        error={shown(problems.ranking)}
      />
      <TextAreaField
        label={t('admin.nodes.fields.preempted')}
        value={values.preempted}
        onChange={set('preempted')}
        optional
        rows={4}
        spellCheck={false}
        hint={t('admin.nodes.fields.preemptedHint', { max: PREEMPTED_MAX })}
        error={shown(problems.preempted)}
      />
      <TextField
        label={t('admin.nodes.fields.category')}
        value={values.category}
        onChange={set('category')}
        optional
        hint={t('admin.nodes.fields.categoryHint')}
        error={shown(problems.category)}
      />
      {unchanged && <FormMessage kind="success">{t('admin.nodes.fields.unchanged')}</FormMessage>}
      {update.isError && <FormMessage kind="error">{apiErrorMessage(update.error, t)}</FormMessage>}
    </FormDialog>
  )
}
