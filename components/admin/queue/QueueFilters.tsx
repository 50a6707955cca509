// The review queue's filters. Status and order apply at once; the text and date fields when the
// form is submitted (Enter or Apply), so the list is not asked again on every keystroke.
import { Button } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { SelectField, TextField } from '@/components/manage/fields'
import { ListAllNodeVersionsSort } from '@/src/api/generated/model'
import { DEFAULT_FILTERS, QUEUE_STATUSES, type QueueFilters as Filters } from './queue-url'

export interface QueueFiltersProps {
  filters: Filters
  onChange: (filters: Filters) => void
}

/** The day part of a URL date, for a date input (which cannot show a time). */
function dayOf(value: string): string {
  return value.slice(0, 10)
}

export function QueueFilters({ filters, onChange }: QueueFiltersProps) {
  const { t } = useTranslation('common')
  const [node, setNode] = useState(filters.node)
  const [publisher, setPublisher] = useState(filters.publisher)
  const [after, setAfter] = useState(dayOf(filters.after))
  const [before, setBefore] = useState(dayOf(filters.before))

  // A date left as it was keeps the URL's exact value (which may carry a time of day).
  const keep = (typed: string, current: string) => (typed === dayOf(current) ? current : typed)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onChange({
      ...filters,
      node: node.trim(),
      publisher: publisher.trim(),
      after: keep(after, filters.after),
      before: keep(before, filters.before),
      page: 1,
    })
  }
  const reset = () => onChange(DEFAULT_FILTERS)
  const filtered =
    filters.node ||
    filters.publisher ||
    filters.after ||
    filters.before ||
    filters.status !== DEFAULT_FILTERS.status ||
    filters.sort !== DEFAULT_FILTERS.sort

  return (
    <form
      onSubmit={submit}
      role="search"
      aria-label={t('admin.queue.filters.label')}
      className="mb-4 grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 dark:border-gray-700 dark:bg-gray-800"
    >
      <SelectField
        label={t('admin.queue.filters.status')}
        value={filters.status}
        onChange={(event) => {
          const status = QUEUE_STATUSES.find((value) => value === event.target.value)
          if (status) onChange({ ...filters, status, page: 1 })
        }}
      >
        {QUEUE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`admin.queue.statusFilter.${status}`)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('admin.queue.filters.node')}
        value={node}
        onChange={(event) => setNode(event.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        label={t('admin.queue.filters.publisher')}
        value={publisher}
        onChange={(event) => setPublisher(event.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        type="date"
        label={t('admin.queue.filters.after')}
        value={after}
        max={before || undefined}
        onChange={(event) => setAfter(event.target.value)}
      />
      <TextField
        type="date"
        label={t('admin.queue.filters.before')}
        value={before}
        min={after || undefined}
        onChange={(event) => setBefore(event.target.value)}
      />
      <SelectField
        label={t('admin.queue.filters.sort')}
        value={filters.sort}
        onChange={(event) => {
          const sort = Object.values(ListAllNodeVersionsSort).find(
            (value) => value === event.target.value,
          )
          if (sort) onChange({ ...filters, sort, page: 1 })
        }}
      >
        <option value={ListAllNodeVersionsSort.oldest}>{t('admin.queue.filters.oldest')}</option>
        <option value={ListAllNodeVersionsSort.newest}>{t('admin.queue.filters.newest')}</option>
      </SelectField>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
        <Button type="submit">{t('admin.queue.filters.apply')}</Button>
        {filtered && (
          <Button type="button" color="light" onClick={reset}>
            {t('admin.queue.filters.reset')}
          </Button>
        )}
      </div>
    </form>
  )
}
