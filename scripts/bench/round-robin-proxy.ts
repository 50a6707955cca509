// A round-robin TCP load balancer on loopback, for `npm run bench:cluster`: each new client
// connection goes to the next target; a target that refuses the connection (a killed process) is
// skipped for the next one, as a load balancer's health check would. Connections are pinned to
// their target for their life, like HTTP keep-alive behind a layer-4 balancer.
import net from 'node:net'

export interface RoundRobinProxy {
  readonly port: number
  /** Connections handed to each target so far, by target port. */
  counts(): Record<number, number>
  close(): Promise<void>
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

export async function startRoundRobinProxy(targets: number[], port = 0): Promise<RoundRobinProxy> {
  const sockets = new Set<net.Socket>()
  const counts: Record<number, number> = Object.fromEntries(targets.map((target) => [target, 0]))
  let next = 0
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.setNoDelay(true)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = net.createServer((client) => {
    track(client)
    client.pause()
    void (async () => {
      for (let tried = 0; tried < targets.length; tried++) {
        const target = targets[next++ % targets.length]
        try {
          const upstream = await connect(target)
          counts[target]++
          track(upstream)
          client.pipe(upstream)
          upstream.pipe(client)
          client.on('close', () => upstream.destroy())
          upstream.on('close', () => client.destroy())
          client.resume()
          return
        } catch {
          // Down: try the next target.
        }
      }
      client.destroy()
    })()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.address() as net.AddressInfo).port,
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}
