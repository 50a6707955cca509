import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { NODE_FILTER_ACCELERATORS, NODE_FILTER_OS, NODE_FILTER_TAGS } from '@/src/lib/constants'
import { hasFilters, type SearchState } from '@/src/lib/search-state'

export type FilterChange = Pick<SearchState, 'tags' | 'os' | 'accelerator'>

export interface SearchFiltersProps {
  state: SearchState
  onChange: (filters: FilterChange) => void
}

function toggle<T extends string>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((item) => item !== value), value] : list.filter((v) => v !== value)
}

function CheckboxGroup<T extends string>({
  legend,
  hint,
  options,
  selected,
  label,
  onToggle,
}: {
  legend: string
  /** How the chosen values combine (all of them, or any one), as the API applies them. */
  hint: string
  options: readonly T[]
  selected: readonly string[]
  label: (value: T) => string
  onToggle: (value: T, on: boolean) => void
}) {
  const id = useId()
  return (
    <fieldset className="min-w-0" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-semibold text-gray-900 dark:text-white">{legend}</legend>
      <p id={`${id}-hint`} className="mb-2 text-xs text-gray-600 dark:text-gray-300">
        {hint}
      </p>
      {/* One class per option, styled in styles/globals.css (.filter-option): 22 of them. */}
      <ul className="grid grid-cols-2 gap-x-3 gap-y-1 lg:grid-cols-1">
        {options.map((value) => (
          <li key={value} className="filter-option">
            <input
              id={`${id}-${value}`}
              type="checkbox"
              value={value}
              checked={selected.includes(value)}
              onChange={(event) => onToggle(value, event.target.checked)}
            />
            <label htmlFor={`${id}-${value}`}>{label(value)}</label>
          </li>
        ))}
      </ul>
    </fieldset>
  )
}

/** Tag, operating-system and accelerator filters; a collapsible panel on small screens. */
export function SearchFilters({ state, onChange }: SearchFiltersProps) {
  const { t } = useTranslation('common')
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const active = state.tags.length + state.os.length + state.accelerator.length
  const filters: FilterChange = { tags: state.tags, os: state.os, accelerator: state.accelerator }
  // Tags from the address that are not in the common list still show, so they can be removed.
  const tagOptions = [
    ...NODE_FILTER_TAGS,
    ...state.tags.filter((tag) => !(NODE_FILTER_TAGS as readonly string[]).includes(tag)),
  ]
  const tagLabel = (tag: string) => t(`filters.tag.${tag}`, { defaultValue: tag })

  return (
    <section aria-labelledby={`${panelId}-heading`} className="lg:sticky lg:top-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${panelId}-heading`} className="text-lg font-semibold lg:mb-3">
          {t('filters.heading')}
          {active > 0 && (
            <span className="ml-2 text-sm font-normal text-gray-600 dark:text-gray-300">
              {t('filters.active', { count: active })}
            </span>
          )}
        </h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          className="inline-flex h-10 items-center rounded-lg border border-gray-300 px-3 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none lg:hidden dark:border-gray-600 dark:text-gray-100 dark:hover:bg-gray-800"
        >
          {open ? t('filters.hide') : t('filters.show')}
        </button>
      </div>
      <div
        id={panelId}
        className={`${open ? 'flex' : 'hidden'} mt-3 flex-col gap-5 lg:mt-0 lg:flex`}
      >
        <CheckboxGroup
          legend={t('filters.tags')}
          hint={t('filters.tagsMatch')}
          options={tagOptions}
          selected={state.tags}
          label={tagLabel}
          onToggle={(tag, on) => onChange({ ...filters, tags: toggle(state.tags, tag, on).sort() })}
        />
        <CheckboxGroup
          legend={t('filters.os')}
          hint={t('filters.osMatch')}
          options={NODE_FILTER_OS}
          selected={state.os}
          label={(os) => t(`filters.osName.${os}`)}
          onToggle={(os, on) =>
            onChange({
              ...filters,
              os: NODE_FILTER_OS.filter((v) => (v === os ? on : state.os.includes(v))),
            })
          }
        />
        <CheckboxGroup
          legend={t('filters.accelerator')}
          hint={t('filters.acceleratorMatch')}
          options={NODE_FILTER_ACCELERATORS}
          selected={state.accelerator}
          label={(accelerator) => t(`filters.acceleratorName.${accelerator}`)}
          onToggle={(accelerator, on) =>
            onChange({
              ...filters,
              accelerator: NODE_FILTER_ACCELERATORS.filter((v) =>
                v === accelerator ? on : state.accelerator.includes(v),
              ),
            })
          }
        />
        {hasFilters(state) && (
          <button
            type="button"
            onClick={() => onChange({ tags: [], os: [], accelerator: [] })}
            className="self-start rounded-md text-sm font-medium text-blue-700 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-blue-300"
          >
            {t('filters.clear')}
          </button>
        )}
      </div>
    </section>
  )
}
