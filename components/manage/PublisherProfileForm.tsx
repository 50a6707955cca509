// The publisher's editable profile (owners): name, description, website, support, source
// repository and logo, saved with PUT /publishers/{id}.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState, type FormEvent } from 'react'
import type { Publisher } from '@/src/api/generated/model'
import { useUpdatePublisher } from '@/src/api/generated/publishers/publishers'
import { apiErrorMessage } from '@/src/lib/api-error'
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from './limits'
import { DescriptionField, FormMessage, TextField } from './fields'
import { CARD } from './styles'
import { imageProblem, noProblems, supportProblem, textProblem, urlProblem } from './validation'

export function PublisherProfileForm({ publisher }: { publisher: Publisher }) {
  const { t } = useTranslation('common')
  const headingId = useId()
  const [values, setValues] = useState({
    name: publisher.name,
    description: publisher.description ?? '',
    website: publisher.website ?? '',
    support: publisher.support ?? '',
    source_code_repo: publisher.source_code_repo ?? '',
    logo: publisher.logo ?? '',
  })
  const [submitted, setSubmitted] = useState(false)
  const update = useUpdatePublisher()
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    update.reset()
    setValues((current) => ({ ...current, [field]: event.target.value }))
  }
  const problems = {
    name: textProblem(
      values.name,
      { max: NAME_MAX_LENGTH, required: t('manage.createPublisher.nameRequired') },
      t,
    ),
    description: textProblem(values.description, { max: DESCRIPTION_MAX_LENGTH }, t),
    website: urlProblem(values.website, t),
    support: supportProblem(values.support, t),
    source_code_repo: urlProblem(values.source_code_repo, t),
    logo: imageProblem(values.logo, t),
  }
  const shown = (problem: string | undefined) => (submitted ? problem : undefined)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!noProblems(problems) || update.isPending) return
    const trimmed = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, value.trim()]),
    ) as typeof values
    update.mutate({ publisherId: publisher.id, data: trimmed })
  }

  return (
    <section aria-labelledby={headingId} className={CARD}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t('manage.settings.profile')}
      </h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-5">
        <TextField
          label={t('manage.createPublisher.name')}
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
          label={t('manage.fields.website')}
          value={values.website}
          onChange={set('website')}
          optional
          placeholder="https://"
          error={shown(problems.website)}
        />
        <TextField
          label={t('manage.fields.support')}
          value={values.support}
          onChange={set('support')}
          optional
          hint={t('manage.fields.supportHint')}
          error={shown(problems.support)}
        />
        <TextField
          type="url"
          label={t('manage.fields.sourceRepo')}
          value={values.source_code_repo}
          onChange={set('source_code_repo')}
          optional
          placeholder="https://github.com/…"
          error={shown(problems.source_code_repo)}
        />
        <TextField
          type="url"
          label={t('manage.fields.logo')}
          value={values.logo}
          onChange={set('logo')}
          optional
          placeholder="https://"
          error={shown(problems.logo)}
        />
        {update.isError && (
          <FormMessage kind="error">{apiErrorMessage(update.error, t)}</FormMessage>
        )}
        {update.isSuccess && <FormMessage kind="success">{t('manage.form.saved')}</FormMessage>}
        <Button type="submit" color="blue" disabled={update.isPending}>
          {update.isPending ? t('manage.form.saving') : t('manage.form.save')}
        </Button>
      </form>
    </section>
  )
}
