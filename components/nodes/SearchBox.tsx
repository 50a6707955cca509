import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import {
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react'
import type { Suggestion } from '@/src/api/generated/model'
import { SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from '@/src/lib/constants'
import { nodePath, publisherPath } from '@/src/lib/paths'
import { normalizeQuery } from '@/src/lib/search-state'
import {
  nextIndex,
  optionId,
  SearchSuggestions,
  suggestionKey,
  useSuggestions,
} from './SearchSuggestions'

const INPUT_ID = 'node-search'
const LIST_ID = 'node-search-suggestions'

export interface SearchBoxProps {
  /** The search text of the address. */
  value: string
  /** Called with the new text: SEARCH_DEBOUNCE_MS after typing stops, at once on Enter or clear. */
  onSearch: (q: string) => void
  /** Called when a tag suggestion is picked (the field is then cleared); else the tag is searched. */
  onPickTag?: (tag: string) => void
}

/**
 * The search field. It keeps its own text while typing and reports it debounced; when the
 * address changes from outside (back, forward, a reset link) the field follows it.
 * It is also a combobox (WAI-ARIA 1.2): suggestions are listed while typing, and picking one
 * opens a node or publisher page or searches by a tag.
 */
export function SearchBox({ value, onSearch, onPickTag }: SearchBoxProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  const [text, setText] = useState(value)
  // The address text last seen, and the text we last reported (null once the address has it).
  const [seenValue, setSeenValue] = useState(value)
  const [reported, setReported] = useState<string | null>(null)
  // The list shows after typing, until Escape, blur, a pick or a search.
  const [open, setOpen] = useState(false)
  const [activeKey, setActiveKey] = useState<string | null>(null)
  // A node or publisher was picked: its page is loading, the typed text is not searched.
  const [leaving, setLeaving] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  // The address changed. If it is what we reported, keep the field as it is (the user may have
  // typed on meanwhile); otherwise (back, forward, a reset link) the field shows the address.
  if (value !== seenValue) {
    setSeenValue(value)
    setReported(null)
    if (value !== reported) setText(value)
  }

  const report = useEffectEvent((q: string) => {
    setReported(q)
    onSearch(q)
  })

  useEffect(() => {
    const q = normalizeQuery(text)
    if (leaving || q === value || q === reported) return
    const timer = setTimeout(() => report(q), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, reported, leaving])

  const typed = normalizeQuery(text)
  const { suggestions, answered } = useSuggestions(typed, open)
  const expanded = open && suggestions.length > 0
  const active = suggestions.findIndex((suggestion) => suggestionKey(suggestion) === activeKey)

  const searchNow = (q: string) => {
    if (q !== value && q !== reported) {
      setReported(q)
      onSearch(q)
    }
  }

  const close = () => {
    setOpen(false)
    setActiveKey(null)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    close()
    searchNow(normalizeQuery(text))
  }

  const clear = () => {
    setText('')
    close()
    if (value) {
      setReported('')
      onSearch('')
    }
    input.current?.focus()
  }

  const pick = (suggestion: Suggestion) => {
    close()
    if (suggestion.kind === 'tag') {
      if (onPickTag) {
        // The tag filter replaces the text: the field empties and has nothing more to report.
        setText('')
        setReported('')
        onPickTag(suggestion.target)
      } else {
        setText(suggestion.target)
        searchNow(normalizeQuery(suggestion.target))
      }
      return
    }
    setLeaving(true)
    const path =
      suggestion.kind === 'publisher'
        ? publisherPath(suggestion.target)
        : nodePath(suggestion.target)
    void router.push(path)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that confirm or browse an input method's candidates are not ours.
    if (event.nativeEvent.isComposing) return
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!typed) return
        event.preventDefault()
        setOpen(true)
        const index = nextIndex(expanded ? active : -1, suggestions.length, event.key)
        setActiveKey(index < 0 ? null : suggestionKey(suggestions[index]))
        return
      }
      case 'Enter':
        // Without an active option, Enter submits the search as before.
        if (expanded && active >= 0) {
          event.preventDefault()
          pick(suggestions[active])
        }
        return
      case 'Escape':
        // The open list closes; with it closed, the browser's own Escape (clearing) applies.
        if (expanded) event.preventDefault()
        close()
        return
      case 'Home':
      case 'End':
        // The caret moves as in any text field; no option stays active.
        setActiveKey(null)
        return
    }
  }

  let announcement = ''
  if (open && answered) {
    announcement = suggestions.length
      ? t('search.suggestions.count', { count: suggestions.length })
      : t('search.suggestions.none')
  }

  return (
    <form role="search" aria-label={t('search.landmark')} onSubmit={submit} className="w-full">
      <label htmlFor={INPUT_ID} className="sr-only">
        {t('search.label')}
      </label>
      <div className="relative">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="pointer-events-none absolute top-1/2 left-3 h-5 w-5 -translate-y-1/2 fill-current text-gray-500 dark:text-gray-400"
        >
          <path d="M8.5 2a6.5 6.5 0 0 1 5.18 10.43l4.2 4.2a1 1 0 0 1-1.42 1.41l-4.19-4.19A6.5 6.5 0 1 1 8.5 2Zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Z" />
        </svg>
        <input
          ref={input}
          id={INPUT_ID}
          type="search"
          name="q"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={LIST_ID}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(LIST_ID, active) : undefined}
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder={t('search.placeholder')}
          onChange={(event) => {
            setText(event.target.value)
            setOpen(true)
            setActiveKey(null)
            setLeaving(false)
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          className="block h-12 w-full rounded-lg border border-gray-300 bg-white pr-12 pl-10 text-base text-gray-900 placeholder:text-gray-500 focus:border-blue-600 focus:ring-2 focus:ring-blue-600 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-white dark:placeholder:text-gray-400 [&::-webkit-search-cancel-button]:hidden"
        />
        {text && (
          <button
            type="button"
            onClick={clear}
            aria-label={t('search.clear')}
            className="absolute top-1/2 right-2 inline-flex h-8 w-8 -translate-y-1/2 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none dark:text-gray-300 dark:hover:bg-gray-700 dark:hover:text-white"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
              <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.58l4.3-4.3a1 1 0 1 1 1.4 1.42L11.42 10l4.3 4.3a1 1 0 0 1-1.42 1.4L10 11.42l-4.3 4.3a1 1 0 0 1-1.4-1.42L8.58 10l-4.3-4.3a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        )}
        <SearchSuggestions
          id={LIST_ID}
          suggestions={suggestions}
          active={expanded ? active : -1}
          expanded={expanded}
          onPick={pick}
        />
      </div>
      <div role="status" aria-live="polite" className="sr-only">
        {announcement}
      </div>
    </form>
  )
}
