// Saves a version's archive. One that is not public yet (Pending, Flagged, Banned) needs the
// signed-in owner's or admin's token, so it is fetched through the API client (which sends it)
// rather than followed as a plain link.
import { useState } from 'react'
import { downloadNodeVersionArchive } from '@/src/api/generated/versions/versions'

export function useArchiveDownload(nodeId: string, version: string) {
  const [state, setState] = useState<{ pending: boolean; error?: unknown }>({ pending: false })
  const download = async () => {
    setState({ pending: true })
    try {
      const blob = await downloadNodeVersionArchive(nodeId, `${version}.zip`)
      const url = URL.createObjectURL(blob)
      const link = document.createElement('a')
      link.href = url
      link.download = `${nodeId}-${version}.zip`
      link.click()
      URL.revokeObjectURL(url)
      setState({ pending: false })
    } catch (error) {
      setState({ pending: false, error })
    }
  }
  return { ...state, download }
}
