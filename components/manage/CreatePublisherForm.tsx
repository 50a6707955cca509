// Create a publisher: the id is checked live (debounced) with GET /publishers/validate and the
// server's verdict is shown next to it; the creator becomes the publisher's owner.
import { Button } from 'flowbite-react'
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { useCreatePublisher, useValidatePublisher } from '@/src/api/generated/publishers/publishers'
import { apiErrorMessage } from '@/src/lib/api-error'
import { PUBLISHER_ID_CHECK_DEBOUNCE_MS } from '@/src/lib/constants'
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, PUBLISHER_ID_MAX_LENGTH } from './limits'
import { DescriptionField, FormMessage, TextField } from './fields'
import { useDebouncedValue } from './useDebouncedValue'
import { noProblems, supportProblem, textProblem, urlProblem } from './validation'
import { publisherSettingsPath } from '@/src/lib/paths'

type Availability = 'empty' | 'checking' | 'available' | 'unavailable' | 'unknown'

export function CreatePublisherForm() {
  const { t } = useTranslation('common')
  const router = useRouter()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [website, setWebsite] = useState('')
  const [support, setSupport] = useState('')
  const [submitted, setSubmitted] = useState(false)

  const debouncedId = useDebouncedValue(id, PUBLISHER_ID_CHECK_DEBOUNCE_MS)
  const check = useValidatePublisher(
    { username: debouncedId },
    { query: { enabled: debouncedId !== '' && debouncedId.length <= PUBLISHER_ID_MAX_LENGTH } },
  )
  const create = useCreatePublisher()

  const tooLong = id.length > PUBLISHER_ID_MAX_LENGTH
  const availability: Availability =
    id === ''
      ? 'empty'
      : tooLong
        ? 'unavailable'
        : id !== debouncedId || check.isFetching || check.isPending
          ? 'checking'
          : check.isError
            ? 'unknown'
            : check.data.isAvailable
              ? 'available'
              : 'unavailable'

  const idError =
    availability === 'unavailable'
      ? tooLong
        ? t('manage.form.tooLong', { max: PUBLISHER_ID_MAX_LENGTH })
        : check.data?.message || t('manage.createPublisher.unavailable')
      : submitted && availability === 'empty'
        ? t('manage.createPublisher.idRequired')
        : undefined
  const problems = {
    name: textProblem(
      name,
      { max: NAME_MAX_LENGTH, required: t('manage.createPublisher.nameRequired') },
      t,
    ),
    description: textProblem(description, { max: DESCRIPTION_MAX_LENGTH }, t),
    website: urlProblem(website, t),
    support: supportProblem(support, t),
  }
  const shown = (problem: string | undefined) => (submitted ? problem : undefined)
  const canSubmit =
    !create.isPending && availability !== 'checking' && availability !== 'unavailable'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (!canSubmit || availability === 'empty' || !noProblems(problems)) return
    const optional = (value: string) => value.trim() || undefined
    create.mutate(
      {
        data: {
          id,
          name: name.trim(),
          description: optional(description),
          website: optional(website),
          support: optional(support),
        },
      },
      { onSuccess: (publisher) => void router.push(publisherSettingsPath(publisher.id)) },
    )
  }

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-5">
      <TextField
        label={t('manage.createPublisher.id')}
        value={id}
        onChange={(event) => setId(event.target.value)}
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint={t('manage.createPublisher.idHint')}
        error={idError}
      />
      <p role="status" aria-live="polite" className="-mt-3 min-h-5 text-sm">
        {availability === 'checking' && (
          <span className="text-gray-700 dark:text-gray-300">
            {t('manage.createPublisher.checking')}
          </span>
        )}
        {availability === 'available' && (
          <span className="text-green-800 dark:text-green-300">
            {t('manage.createPublisher.available', { id })}
          </span>
        )}
        {availability === 'unknown' && (
          <span className="text-gray-700 dark:text-gray-300">
            {t('manage.createPublisher.checkFailed')}
          </span>
        )}
      </p>
      <TextField
        label={t('manage.createPublisher.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        hint={t('manage.createPublisher.nameHint')}
        error={shown(problems.name)}
      />
      <DescriptionField
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={shown(problems.description)}
      />
      <TextField
        type="url"
        label={t('manage.fields.website')}
        value={website}
        onChange={(event) => setWebsite(event.target.value)}
        optional
        placeholder="https://"
        error={shown(problems.website)}
      />
      <TextField
        label={t('manage.fields.support')}
        value={support}
        onChange={(event) => setSupport(event.target.value)}
        optional
        hint={t('manage.fields.supportHint')}
        error={shown(problems.support)}
      />
      {create.isError && <FormMessage kind="error">{apiErrorMessage(create.error, t)}</FormMessage>}
      <Button type="submit" color="blue" disabled={!canSubmit}>
        {create.isPending
          ? t('manage.createPublisher.submitting')
          : t('manage.createPublisher.submit')}
      </Button>
    </form>
  )
}
