// The node edit form (owners), in a modal: name, description, repository, icon, tags, license,
// supported operating systems and accelerators, and the ComfyUI version; PUT to the node.
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { useUpdateNode } from '@/src/api/generated/nodes/nodes'
import type { Node } from '@/src/api/generated/model'
import { apiErrorMessage } from '@/src/lib/api-error'
import { NODE_FILTER_ACCELERATORS, NODE_FILTER_OS } from '@/src/lib/constants'
import { compatibilityName } from '@/src/lib/compatibility'
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NODE_TAGS_MAX,
  NODE_TAG_MAX_LENGTH,
  URL_MAX_LENGTH,
} from './limits'
import { FormDialog } from './Dialog'
import { CheckboxGroupField, DescriptionField, FormMessage, TextField } from './fields'
import { imageProblem, noProblems, textProblem, urlProblem } from './validation'

/** Tags typed as a comma-separated list: trimmed, lowercase, without empties or repeats. */
export function parseTags(value: string): string[] {
  const tags = value
    .split(',')
    .map((tag) => tag.trim().toLowerCase())
    .filter(Boolean)
  return [...new Set(tags)]
}

export interface EditNodeDialogProps {
  node: Node & { publisher: NonNullable<Node['publisher']> }
  onClose: () => void
  onSaved: () => void
}

export function EditNodeDialog({ node, onClose, onSaved }: EditNodeDialogProps) {
  const { t } = useTranslation('common')
  const [values, setValues] = useState({
    name: node.name,
    description: node.description ?? '',
    repository: node.repository ?? '',
    icon: node.icon ?? '',
    tags: (node.tags ?? []).join(', '),
    license: node.license ?? '',
    supported_comfyui_version: node.supported_comfyui_version ?? '',
  })
  const [os, setOs] = useState<string[]>(node.supported_os ?? [])
  const [accelerators, setAccelerators] = useState<string[]>(node.supported_accelerators ?? [])
  const [submitted, setSubmitted] = useState(false)
  const update = useUpdateNode()
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }))

  const tags = parseTags(values.tags)
  const problems = {
    name: textProblem(
      values.name,
      { max: NAME_MAX_LENGTH, required: t('manage.node.nameRequired') },
      t,
    ),
    description: textProblem(values.description, { max: DESCRIPTION_MAX_LENGTH }, t),
    repository: urlProblem(values.repository, t),
    icon: imageProblem(values.icon, t),
    tags:
      tags.length > NODE_TAGS_MAX
        ? t('manage.node.tooManyTags', { max: NODE_TAGS_MAX })
        : tags.some((tag) => tag.length > NODE_TAG_MAX_LENGTH)
          ? t('manage.node.tagTooLong', { max: NODE_TAG_MAX_LENGTH })
          : undefined,
    license: textProblem(values.license, { max: URL_MAX_LENGTH }, t),
  }
  const shown = (problem: string | undefined) => (submitted ? problem : undefined)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!noProblems(problems) || update.isPending) return
    update.mutate(
      {
        publisherId: node.publisher.id,
        nodeId: node.id,
        data: {
          name: values.name.trim(),
          description: values.description.trim(),
          repository: values.repository.trim(),
          icon: values.icon.trim(),
          tags,
          license: values.license.trim(),
          supported_os: os,
          supported_accelerators: accelerators,
          supported_comfyui_version: values.supported_comfyui_version.trim(),
        },
      },
      { onSuccess: onSaved },
    )
  }

  return (
    <FormDialog
      onClose={onClose}
      size="2xl"
      title={t('manage.node.editTitle', { name: node.name })}
      pending={update.isPending}
      onSubmit={submit}
      formClassName="space-y-5"
    >
      <TextField
        label={t('manage.node.name')}
        value={values.name}
        onChange={set('name')}
        required
        error={shown(problems.name)}
      />
      <DescriptionField
        value={values.description}
        onChange={set('description')}
        error={shown(problems.description)}
      />
      <TextField
        type="url"
        label={t('manage.node.repository')}
        value={values.repository}
        onChange={set('repository')}
        optional
        placeholder="https://github.com/…"
        error={shown(problems.repository)}
      />
      <TextField
        type="url"
        label={t('manage.node.icon')}
        value={values.icon}
        onChange={set('icon')}
        optional
        placeholder="https://"
        error={shown(problems.icon)}
      />
      <TextField
        label={t('manage.node.tags')}
        value={values.tags}
        onChange={set('tags')}
        optional
        hint={t('manage.node.tagsHint')}
        error={shown(problems.tags)}
      />
      <TextField
        label={t('manage.node.license')}
        value={values.license}
        onChange={set('license')}
        optional
        hint={t('manage.node.licenseHint')}
        error={shown(problems.license)}
      />
      <CheckboxGroupField
        legend={t('manage.node.os')}
        options={NODE_FILTER_OS.map((value) => ({
          value,
          label: compatibilityName('os', value, t),
        }))}
        selected={os}
        onChange={setOs}
      />
      <CheckboxGroupField
        legend={t('manage.node.accelerators')}
        options={NODE_FILTER_ACCELERATORS.map((value) => ({
          value,
          label: compatibilityName('accelerator', value, t),
        }))}
        selected={accelerators}
        onChange={setAccelerators}
      />
      <TextField
        label={t('manage.node.comfyuiVersion')}
        value={values.supported_comfyui_version}
        onChange={set('supported_comfyui_version')}
        optional
        placeholder=">=0.3.0"
        hint={t('manage.node.comfyuiVersionHint')}
      />
      {update.isError && <FormMessage kind="error">{apiErrorMessage(update.error, t)}</FormMessage>}
    </FormDialog>
  )
}
