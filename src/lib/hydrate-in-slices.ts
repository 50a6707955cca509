// Next's pages router starts hydration with `hydrateRoot` outside a transition, so React hydrates
// the whole page in one task: on a throttled phone that task is most of the total blocking time
// (docs/ARCHITECTURE.md "Blocking time"). Called inside `startTransition`, the same hydration is
// rendered in slices, React yielding to the browser every few milliseconds; an event on the page
// before it ends makes React finish it at once, then handle the event. pages/_app.tsx calls
// hydrateInSlices when it loads, and Next calls `hydrateRoot` after it has loaded `_app`.
import { startTransition } from 'react'
import ReactDOMClient from 'react-dom/client'

type HydrateRoot = typeof ReactDOMClient.hydrateRoot

/** `hydrate` wrapped so that the hydration it starts is a transition. */
export function inTransition(hydrate: HydrateRoot): HydrateRoot {
  return (container, children, options) => {
    let root: ReturnType<HydrateRoot> | undefined
    startTransition(() => {
      root = hydrate(container, children, options)
    })
    if (!root) throw new Error('hydrateRoot returned no root')
    return root
  }
}

const marked = Symbol.for('registry.hydrate-in-slices')

/**
 * Makes the page's hydration a transition. Next reads `hydrateRoot` off react-dom/client's exports
 * when it calls it, so replacing it there is enough; once (fast refresh may load `_app` again).
 */
export function hydrateInSlices(): void {
  if (typeof window === 'undefined' || Reflect.get(ReactDOMClient.hydrateRoot, marked)) return
  const wrapped = inTransition(ReactDOMClient.hydrateRoot)
  Reflect.set(wrapped, marked, true)
  Reflect.set(ReactDOMClient, 'hydrateRoot', wrapped)
}
