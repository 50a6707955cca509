// Calls back when a version shown to its owners becomes Active while they watch (the publishing
// pipeline approved it between two polls), so the page can fetch what depends on it.
import { useEffect, useRef } from 'react'
import { NodeVersionStatus, type NodeVersion } from '@/src/api/generated/model'

export function useVersionActivation(
  versions: readonly NodeVersion[] | undefined,
  onActivated: () => void,
): void {
  const seen = useRef<Map<string, NodeVersion['status']> | undefined>(undefined)
  const callback = useRef(onActivated)
  useEffect(() => {
    callback.current = onActivated
  })

  useEffect(() => {
    if (!versions) return
    const previous = seen.current
    seen.current = new Map(versions.map((version) => [version.id, version.status]))
    // The first list is what the page opened with: nothing changed yet.
    if (!previous) return
    const activated = versions.some(
      (version) =>
        version.status === NodeVersionStatus.NodeVersionStatusActive &&
        previous.get(version.id) !== NodeVersionStatus.NodeVersionStatusActive,
    )
    if (activated) callback.current()
  }, [versions])
}
