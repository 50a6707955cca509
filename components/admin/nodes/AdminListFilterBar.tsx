// The search form of the admin lists: a text (sent with Enter or the button) and "banned only"
// (applied at once). The field follows the address when it changes from outside (back, a link).
import { Button } from 'flowbite-react'
import { CheckboxField, TextField } from '@/components/manage/fields'
import { useTranslation } from 'next-i18next/pages'
import { useState, type FormEvent } from 'react'
import { SEARCH_MAX_LENGTH } from '@/src/lib/constants'
import type { AdminListFilters } from './list-filters'

export interface AdminListFilterBarProps {
  filters: AdminListFilters
  /** Called with the new filters (page back to 1). */
  onChange: (filters: AdminListFilters) => void
  /** Whose texts (`admin.<section>.filters.*`). */
  section: 'nodes' | 'publishers'
}

export function AdminListFilterBar({ filters, onChange, section }: AdminListFilterBarProps) {
  const { t } = useTranslation('common')
  const label = (key: 'landmark' | 'search' | 'placeholder' | 'submit' | 'bannedOnly') =>
    t(`admin.${section}.filters.${key}`)
  const [text, setText] = useState(filters.q)
  const [seen, setSeen] = useState(filters.q)
  if (filters.q !== seen) {
    setSeen(filters.q)
    setText(filters.q)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    onChange({ ...filters, q: text.trim(), page: 1 })
  }

  return (
    <form
      role="search"
      aria-label={label('landmark')}
      onSubmit={submit}
      className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <TextField
        className="min-w-0 flex-1"
        label={label('search')}
        type="search"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        placeholder={label('placeholder')}
        onChange={(event) => setText(event.target.value)}
      />
      <CheckboxField
        className="flex items-center sm:h-10"
        label={label('bannedOnly')}
        checked={filters.banned}
        onChange={(event) => onChange({ q: text.trim(), banned: event.target.checked, page: 1 })}
      />
      <Button type="submit" color="blue">
        {label('submit')}
      </Button>
    </form>
  )
}
