// The CI list's filters: the repository (a text field applied on submit; a plain GET form without
// JavaScript) and the branch (applied as soon as it is picked). A new repository starts on all
// of its branches.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useId, useState } from 'react'
import { DEFAULT_LANGUAGE } from '@/src/lib/constants'
import { DEFAULT_CI_REPO, type CiFilters as Filters } from './ci-address'

export interface CiFiltersProps {
  filters: Filters
  /** The repository's branches with results (undefined while loading). */
  branches: string[] | undefined
  onChange: (filters: Filters) => void
}

const FIELD =
  'h-10 min-w-0 rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-white'
const LABEL = 'block text-sm font-medium text-gray-900 dark:text-white'

export function CiFilters({ filters, branches, onChange }: CiFiltersProps) {
  const { t } = useTranslation('common')
  const { locale = DEFAULT_LANGUAGE } = useRouter()
  const id = useId()
  // The field follows the address when it changes (back, or a link), keeping what is typed.
  const [typed, setTyped] = useState({ repo: filters.repo, value: filters.repo })
  const repo = typed.repo === filters.repo ? typed.value : filters.repo
  // The address's branch stays a choice even when the repository has no results on it.
  const options = [
    ...(branches ?? []),
    ...(filters.branch && !branches?.includes(filters.branch) ? [filters.branch] : []),
  ]

  return (
    <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-end">
      <form
        action={locale === DEFAULT_LANGUAGE ? '/ci' : `/${locale}/ci`}
        method="get"
        className="flex min-w-0 flex-1 flex-col gap-1 sm:max-w-xl"
        onSubmit={(event) => {
          event.preventDefault()
          onChange({ repo: repo.trim() || DEFAULT_CI_REPO, branch: '', page: 1 })
        }}
      >
        <label htmlFor={`${id}-repo`} className={LABEL}>
          {t('ci.filters.repo')}
        </label>
        <div className="flex gap-2">
          <input
            id={`${id}-repo`}
            name="repo"
            type="text"
            value={repo}
            onChange={(event) => setTyped({ repo: filters.repo, value: event.target.value })}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-repo-hint`}
            className={`${FIELD} flex-1`}
          />
          <button
            type="submit"
            className="h-10 shrink-0 rounded-lg bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 focus-visible:ring-4 focus-visible:ring-blue-300 focus-visible:outline-none dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus-visible:ring-blue-800"
          >
            {t('ci.filters.apply')}
          </button>
        </div>
        <p id={`${id}-repo-hint`} className="text-xs text-gray-600 dark:text-gray-300">
          {t('ci.filters.repoHint')}
        </p>
      </form>
      <div className="flex flex-col gap-1 sm:mb-5">
        <label htmlFor={`${id}-branch`} className={LABEL}>
          {t('ci.filters.branch')}
        </label>
        <select
          id={`${id}-branch`}
          value={filters.branch}
          onChange={(event) => onChange({ ...filters, branch: event.target.value, page: 1 })}
          className={`${FIELD} sm:w-56`}
        >
          <option value="">{t('ci.filters.allBranches')}</option>
          {options.map((branch) => (
            <option key={branch} value={branch}>
              {branch}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}
