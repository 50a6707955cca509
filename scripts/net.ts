// Waiting for a child process to open its port: `npm start` and the benchmarks use it.
import type { ChildProcess } from 'node:child_process'
import net from 'node:net'

export async function waitForPort(
  port: number,
  what: string,
  child: ChildProcess,
  timeoutMs = 120_000,
) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited early (code ${child.exitCode}).`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${what} did not open port ${port} within ${timeoutMs / 1000} s.`)
}
