// Server-rendered parts of a page whose code is left out of its first-load JavaScript
// (docs/ARCHITECTURE.md "Page weight"). Each is a chunk of its own, fetched as soon as the page's
// code runs; the server waits for them (deferredChunksReady) and renders them in full, in a <div>.
// In the browser, until the chunk has arrived, that <div> keeps the server's HTML: it is given
// dangerouslySetInnerHTML, whose content React neither checks nor touches while hydrating. Once
// the chunk is there the part is rendered in the browser (the same markup) and works; when it
// arrived before hydration, it is hydrated with the rest. (Not a Suspense boundary: React sends
// one as a hidden copy and an inline script, which the CSP refuses.) Memo components: a
// re-render with the same props leaves the server's HTML alone meanwhile.
import { memo, startTransition, useEffect, useState, type ComponentType } from 'react'

const pending: Promise<unknown>[] = []

/** Resolves once every deferred component's chunk has loaded (or failed): before server renders. */
export async function deferredChunksReady(): Promise<void> {
  await Promise.all(pending)
}

/** Keeps the server's HTML of the part (an empty string here is never written while hydrating). */
const KEEP_SERVER_HTML = { __html: '' }

export function deferred<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  let loaded: ComponentType<Props> | undefined
  const fetchChunk = () =>
    load().then((component) => {
      loaded = component
      return component
    })
  // At once, not when first rendered; a failure is tried again by the first render.
  pending.push(fetchChunk().catch(() => undefined))

  function Deferred(props: Props) {
    const [Component, setComponent] = useState(() => loaded)
    useEffect(() => {
      if (Component) return
      let cancelled = false
      fetchChunk()
        .then((component) => {
          // A transition: React renders the part in slices, the page stays responsive meanwhile.
          if (!cancelled) startTransition(() => setComponent(() => component))
        })
        .catch(() => undefined)
      return () => {
        cancelled = true
      }
    }, [Component])
    if (Component) {
      return (
        <div>
          <Component {...props} />
        </div>
      )
    }
    return <div dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />
  }
  return memo(Deferred) as unknown as ComponentType<Props>
}
