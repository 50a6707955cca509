// For tests of how React spreads rendering over tasks (docs/ARCHITECTURE.md "Blocking time"):
// components that take a while to render, and what was rendered each time another task ran.

/** Takes `ms` of the main thread, as rendering a component does on a slow phone. */
export function busyFor(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // Busy, as rendering is.
  }
}

/** Lets another task run: a macrotask, after whatever React has scheduled before it. */
export const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

/** `count()` each time another task ran, until it reaches `all`. */
export async function countsBetweenTasks(count: () => number, all: number): Promise<number[]> {
  const counts: number[] = []
  while (count() < all) {
    await nextTask()
    counts.push(count())
  }
  return counts
}

/** The counts between none and all: each is a task that ran in the middle of the rendering. */
export const midway = (counts: number[], all: number) =>
  counts.filter((count) => count > 0 && count < all)

/**
 * Turns off React's act() environment for the tests of a file or describe: they watch React's own
 * scheduling, which act() would flush at once.
 */
export function withoutActEnvironment(): void {
  const previous = Reflect.get(globalThis, 'IS_REACT_ACT_ENVIRONMENT')
  beforeAll(() => Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false))
  afterAll(() => Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', previous))
}
