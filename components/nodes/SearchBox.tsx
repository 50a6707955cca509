import { useTranslation } from 'next-i18next/pages'
import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react'
import { SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from '@/src/lib/constants'
import { normalizeQuery } from '@/src/lib/search-state'

export interface SearchBoxProps {
  /** The search text of the address. */
  value: string
  /** Called with the new text: SEARCH_DEBOUNCE_MS after typing stops, at once on Enter or clear. */
  onSearch: (q: string) => void
}

/**
 * The search field. It keeps its own text while typing and reports it debounced; when the
 * address changes from outside (back, forward, a reset link) the field follows it.
 */
export function SearchBox({ value, onSearch }: SearchBoxProps) {
  const { t } = useTranslation('common')
  const [text, setText] = useState(value)
  // The address text last seen, and the text we last reported (null once the address has it).
  const [seenValue, setSeenValue] = useState(value)
  const [reported, setReported] = useState<string | null>(null)
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
    if (q === value || q === reported) return
    const timer = setTimeout(() => report(q), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, reported])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const q = normalizeQuery(text)
    if (q !== value && q !== reported) {
      setReported(q)
      onSearch(q)
    }
  }

  const clear = () => {
    setText('')
    if (value) {
      setReported('')
      onSearch('')
    }
    input.current?.focus()
  }

  return (
    <form role="search" aria-label={t('search.landmark')} onSubmit={submit} className="w-full">
      <label htmlFor="node-search" className="sr-only">
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
          id="node-search"
          type="search"
          name="q"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder={t('search.placeholder')}
          onChange={(event) => setText(event.target.value)}
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
      </div>
    </form>
  )
}
