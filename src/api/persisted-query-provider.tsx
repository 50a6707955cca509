// The query client and its persisted cache (src/api/persist.ts), as React Query's
// PersistQueryClientProvider provides them, but with the end of the restore as a transition.
// Until the restore has finished, queries wait (`useIsRestoring`); its end re-renders every
// component that reads a query, which right after hydration is most of the page. As a transition
// React renders that in slices and the browser stays responsive in between, where an ordinary
// update would be one long task (docs/ARCHITECTURE.md "Blocking time").
import { IsRestoringProvider, QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistQueryClientOptions,
} from '@tanstack/react-query-persist-client'
import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react'

export interface PersistedQueryProviderProps {
  client: QueryClient
  persistOptions: Omit<PersistQueryClientOptions, 'queryClient'>
  children: ReactNode
}

export function PersistedQueryProvider({
  client,
  persistOptions,
  children,
}: PersistedQueryProviderProps) {
  const [isRestoring, setIsRestoring] = useState(true)
  const restoreStarted = useRef(false)

  useEffect(() => {
    const options = { ...persistOptions, queryClient: client }
    if (!restoreStarted.current) {
      restoreStarted.current = true
      // A cache that cannot be read has been removed by the restore: the page goes on without it.
      void persistQueryClientRestore(options)
        .catch(() => undefined)
        .finally(() => startTransition(() => setIsRestoring(false)))
    }
    // Once restored, every change of the cache is saved (throttled, see persist.ts).
    return isRestoring ? undefined : persistQueryClientSubscribe(options)
  }, [client, persistOptions, isRestoring])

  return (
    <QueryClientProvider client={client}>
      <IsRestoringProvider value={isRestoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  )
}
