// Runs a task per key at most once per interval without losing the last request: a call while a
// run is waiting joins it; a call within the interval after a run waits for the interval to end
// and then runs once for everyone who asked meanwhile.

export function perKeyCoalescer(intervalMs: number, maxKeys = 10_000) {
  const waiting = new Map<string, Promise<void>>()
  const lastRun = new Map<string, number>()
  return function run(key: string, task: () => Promise<void>): Promise<void> {
    const joined = waiting.get(key)
    if (joined) return joined
    const previous = lastRun.get(key)
    const delay = previous === undefined ? 0 : Math.max(0, previous + intervalMs - Date.now())
    const wait =
      delay > 0 ? new Promise<void>((resolve) => setTimeout(resolve, delay)) : Promise.resolve()
    const scheduled = wait.then(() => {
      waiting.delete(key)
      lastRun.delete(key)
      lastRun.set(key, Date.now())
      if (lastRun.size > maxKeys) lastRun.delete(lastRun.keys().next().value as string)
      return task()
    })
    waiting.set(key, scheduled)
    return scheduled
  }
}
