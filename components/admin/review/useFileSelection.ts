// The file and line the reviewer reads, kept in the URL (`?file=…&line=…`) so a finding's place
// can be shared and survives a reload. The URL is written with a shallow replace; local state
// answers at once and follows the URL when it changes from outside (back, forward, a link).
import { useRouter } from 'next/router'
import { useCallback, useState } from 'react'
import { selectionFromQuery, type FileSelection } from './review-utils'

const keyOf = (selection: FileSelection | undefined) =>
  selection ? `${selection.line}:${selection.file}` : ''

export function useFileSelection(): [
  FileSelection | undefined,
  (next: FileSelection | undefined) => void,
] {
  const router = useRouter()
  const fromUrl = selectionFromQuery(router.query)
  const [selection, setSelection] = useState(fromUrl)
  const [seenUrl, setSeenUrl] = useState(keyOf(fromUrl))
  // Adjusting state while rendering (React's pattern for following a changing input).
  if (keyOf(fromUrl) !== seenUrl) {
    setSeenUrl(keyOf(fromUrl))
    setSelection(fromUrl)
  }

  const select = useCallback(
    (next: FileSelection | undefined) => {
      setSelection(next)
      const { file: _file, line: _line, ...rest } = router.query
      const query = next
        ? { ...rest, file: next.file, ...(next.line > 0 ? { line: String(next.line) } : {}) }
        : rest
      void router.replace({ pathname: router.pathname, query }, undefined, {
        shallow: true,
        scroll: false,
      })
    },
    [router],
  )
  return [selection, select]
}
