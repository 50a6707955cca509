import { keepPreviousData } from '@tanstack/react-query'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useRef, useState } from 'react'
import type { Suggestion, SuggestionList } from '@/src/api/generated/model'
import { useSuggestNodes } from '@/src/api/generated/nodes/nodes'
import { SUGGESTIONS_MAX } from '@/src/lib/constants'

/** Suggestions are asked this long after the last keystroke (the results wait longer). */
export const SUGGEST_DEBOUNCE_MS = 100

/** How long unused answers are kept (each typed prefix has one: not the usual 24 hours). */
const SUGGEST_GC_MS = 5 * 60_000

const NONE: Suggestion[] = []

/** The keys that move the active option. */
export type ListKey = 'ArrowDown' | 'ArrowUp'

/**
 * The option an arrow key makes active among `count` options, wrapping at both ends; -1 stands
 * for none (then Down goes to the first option and Up to the last).
 */
export function nextIndex(current: number, count: number, key: ListKey): number {
  if (count <= 0) return -1
  if (key === 'ArrowDown') return current < 0 || current >= count - 1 ? 0 : current + 1
  return current <= 0 || current >= count ? count - 1 : current - 1
}

/** What tells two suggestions apart (the active option is kept by it while the list changes). */
export const suggestionKey = (suggestion: Suggestion) =>
  `${suggestion.kind} ${suggestion.target} ${suggestion.text}`

export const optionId = (listId: string, index: number) => `${listId}-${index}`

/**
 * The suggestions for the typed text (already normalised), asked SUGGEST_DEBOUNCE_MS after it
 * changes while `enabled`. The previous list stays while the next one loads; a failed or refused
 * (429) request gives no list. `answered` is false until some answer is there to announce.
 */
export function useSuggestions(typed: string, enabled: boolean) {
  const wanted = enabled ? typed : ''
  const [asked, setAsked] = useState(wanted)
  useEffect(() => {
    const timer = setTimeout(() => setAsked(wanted), SUGGEST_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [wanted])

  const { data, isError } = useSuggestNodes(
    { q: asked, limit: SUGGESTIONS_MAX },
    {
      query: {
        enabled: asked !== '',
        placeholderData: keepPreviousData<SuggestionList>,
        gcTime: SUGGEST_GC_MS,
      },
    },
  )
  const answered = Boolean(enabled && typed && data && !isError)
  const suggestions = answered ? (data?.suggestions ?? NONE).slice(0, SUGGESTIONS_MAX) : NONE
  return { suggestions, answered }
}

export interface SearchSuggestionsProps {
  /** The listbox's id (the combobox's aria-controls); options get `${id}-${index}`. */
  id: string
  suggestions: Suggestion[]
  /** Index of the active option, -1 for none. */
  active: number
  expanded: boolean
  onPick: (suggestion: Suggestion) => void
}

/** The popup list of the search box's suggestions, below the field and over the results. */
export function SearchSuggestions({
  id,
  suggestions,
  active,
  expanded,
  onPick,
}: SearchSuggestionsProps) {
  const { t } = useTranslation('common')
  const list = useRef<HTMLUListElement>(null)

  // The option made active with the keyboard stays in view when the list scrolls.
  useEffect(() => {
    list.current?.children.item(active)?.scrollIntoView?.({ block: 'nearest' })
  }, [active])

  return (
    <ul
      ref={list}
      id={id}
      role="listbox"
      aria-label={t('search.suggestions.label')}
      hidden={!expanded}
      // Keeps the focus in the field when an option (or the scroll bar) is pressed.
      onMouseDown={(event) => event.preventDefault()}
      className="absolute top-full right-0 left-0 z-20 mt-1 max-h-[min(24rem,60vh)] overflow-y-auto rounded-lg border border-gray-200 bg-white py-1 shadow-lg dark:border-gray-600 dark:bg-gray-800"
    >
      {expanded &&
        suggestions.map((suggestion, index) => (
          <li
            key={suggestionKey(suggestion)}
            id={optionId(id, index)}
            role="option"
            aria-selected={index === active}
            onClick={() => onPick(suggestion)}
            className="cursor-pointer px-3 py-2 text-gray-900 hover:bg-gray-100 aria-selected:bg-blue-100 aria-selected:ring-2 aria-selected:ring-blue-600 aria-selected:ring-inset dark:text-white dark:hover:bg-gray-700 dark:aria-selected:bg-gray-600"
          >
            {/* The spaces between the parts keep them apart in the option's accessible name. */}
            <span className="flex items-baseline gap-2">
              <span className="min-w-0 flex-1 truncate font-medium">{suggestion.text}</span>{' '}
              <span className="shrink-0 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700 dark:bg-gray-900 dark:text-gray-300">
                {t(`search.suggestions.kind.${suggestion.kind}`)}
              </span>
            </span>
            {suggestion.detail && (
              <>
                {' '}
                <span className="block truncate text-sm text-gray-600 dark:text-gray-300">
                  {suggestion.detail}
                </span>
              </>
            )}
          </li>
        ))}
    </ul>
  )
}
