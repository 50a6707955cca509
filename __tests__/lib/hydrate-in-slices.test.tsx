/** @jest-environment jsdom */
import ReactDOMClient, { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { hydrateInSlices, inTransition } from '@/src/lib/hydrate-in-slices'
import {
  busyFor,
  countsBetweenTasks,
  midway,
  nextTask,
  withoutActEnvironment,
} from '../render-slices'

// A page of many components that each take a while to render, as a throttled phone hydrates a
// listing: hydrated in one task by `hydrateRoot` alone, in several tasks inside a transition.
const PARTS = 40
const PART_MS = 2
let rendered = 0

/** What rendering one part costs, counted. */
function renderWork(): void {
  busyFor(PART_MS)
  rendered += 1
}

function Part({ index }: { index: number }) {
  renderWork()
  return <li>part {index}</li>
}

let clicks = 0

function Page() {
  return (
    <>
      <ul>
        {Array.from({ length: PARTS }, (_, index) => (
          <Part key={index} index={index} />
        ))}
      </ul>
      <button type="button" onClick={() => (clicks += 1)}>
        Last
      </button>
    </>
  )
}

/**
 * Hydrates the server's HTML of Page with `hydrate` and returns how many parts had rendered each
 * time another task ran, until every part had: a count between none and all is a task boundary
 * inside the hydration.
 */
async function hydrationCounts(hydrate: typeof hydrateRoot): Promise<number[]> {
  const container = document.createElement('div')
  container.innerHTML = renderToString(<Page />)
  document.body.append(container)
  rendered = 0
  const recoverable: unknown[] = []
  const root = hydrate(container, <Page />, {
    onRecoverableError: (error) => recoverable.push(error),
  })
  const counts = await countsBetweenTasks(() => rendered, PARTS)
  // Hydrated, not rendered again: the server's elements are still there.
  expect(recoverable).toEqual([])
  expect(container.querySelectorAll('li')).toHaveLength(PARTS)
  root.unmount()
  container.remove()
  return counts
}

withoutActEnvironment()

test('hydrateRoot alone hydrates the page in one task', async () => {
  const counts = await hydrationCounts(hydrateRoot)
  expect(midway(counts, PARTS)).toEqual([])
})

test('inside a transition the hydration yields to other tasks before it ends', async () => {
  const counts = await hydrationCounts(inTransition(hydrateRoot))
  expect(midway(counts, PARTS).length).toBeGreaterThan(0)
})

test('hydrateInSlices makes the hydrateRoot Next calls a transition, once', async () => {
  const original = ReactDOMClient.hydrateRoot
  try {
    hydrateInSlices()
    const installed = ReactDOMClient.hydrateRoot
    expect(installed).not.toBe(original)
    hydrateInSlices()
    expect(ReactDOMClient.hydrateRoot).toBe(installed)
    // Read off the exports at the call, as Next does.
    const counts = await hydrationCounts((...args) => ReactDOMClient.hydrateRoot(...args))
    expect(midway(counts, PARTS).length).toBeGreaterThan(0)
  } finally {
    Reflect.set(ReactDOMClient, 'hydrateRoot', original)
  }
})

test('a click while it hydrates makes React finish the hydration at once, then handle the click', async () => {
  const container = document.createElement('div')
  container.innerHTML = renderToString(<Page />)
  document.body.append(container)
  rendered = 0
  clicks = 0
  const root = inTransition(hydrateRoot)(container, <Page />)
  while (rendered === 0) await nextTask()
  expect(rendered).toBeLessThan(PARTS)
  container.querySelector('button')?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
  // Every part rendered (those of the interrupted slices again, at the click's priority).
  expect(rendered).toBeGreaterThanOrEqual(PARTS)
  expect(clicks).toBe(1)
  root.unmount()
  container.remove()
})
