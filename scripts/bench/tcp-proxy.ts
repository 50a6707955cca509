// A TCP proxy on loopback between the API and PostgreSQL, to cut the database away while
// requests flow: `cut()` closes every proxied connection and stops accepting new ones (clients
// get ECONNREFUSED), `restore()` accepts again on the same port. Used by
// server/db/outage.test.ts and `npm run bench:reliability`.
import net from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  proxiedUrl(databaseUrl: string): string
  /** Connections passing through now. */
  connections(): number
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as net.AddressInfo).port)
    })
  })
}

/** Starts a proxy to `target` (host:port) on a free loopback port. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    // Without it Nagle's algorithm adds ~40 ms to every query's round trip.
    socket.setNoDelay(true)
    socket.on('close', () => sockets.delete(socket))
    // A reset during a cut is expected; an unhandled 'error' would crash the process.
    socket.on('error', () => socket.destroy())
  }
  const makeServer = () =>
    net.createServer((client) => {
      const upstream = net.connect(target.port, target.host)
      track(client)
      track(upstream)
      client.pipe(upstream)
      upstream.pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
  let server: net.Server | null = makeServer()
  const port = await listen(server, 0)

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const current = server
      server = null
      if (!current) return resolve()
      current.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    })

  return {
    port,
    proxiedUrl(databaseUrl) {
      const url = new URL(databaseUrl)
      url.hostname = '127.0.0.1'
      url.port = String(port)
      return url.toString()
    },
    connections: () => sockets.size / 2,
    cut: stopListening,
    async restore() {
      if (server) return
      server = makeServer()
      await listen(server, port)
    },
    close: stopListening,
  }
}
