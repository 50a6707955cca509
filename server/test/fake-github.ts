/**
 * A small stand-in for the GitHub REST API (`GET /repos/{owner}/{repo}` and `GET /users/{login}`),
 * on an ephemeral local port, for the claim-my-node and trusted publishing tests. Tokens map to
 * the rights their user has per repository; unknown or revoked tokens get GitHub's 401 "Bad
 * credentials"; private repositories the user cannot see answer 404, as GitHub does. Users are
 * public (no token needed), by login, case-insensitively; unknown logins answer 404.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type RepoRole = 'admin' | 'maintain' | 'write' | 'read'

export interface FakeGithub {
  url: string
  /** `owner/repo` → visibility. */
  addRepository(fullName: string, options?: { private?: boolean }): void
  grant(token: string, fullName: string, role: RepoRole): void
  revoke(token: string): void
  /** A user or organisation with its numeric id (GET /users/{login}). */
  addUser(login: string, id: number): void
  /** While down, every request's connection is dropped (GitHub unreachable). */
  setDown(down: boolean): void
  /** Authorization headers received, in order (to check the token is sent as a bearer). */
  readonly authorizations: string[]
  close(): Promise<void>
}

const ROLE_RANK: Record<RepoRole, number> = { read: 1, write: 2, maintain: 3, admin: 4 }

/** `port` 0 (the default) takes a free one; the e2e stack needs a fixed one known at its start. */
export async function startFakeGithub(options: { port?: number } = {}): Promise<FakeGithub> {
  const repositories = new Map<string, { fullName: string; private: boolean }>()
  const grants = new Map<string, Map<string, RepoRole>>()
  const revoked = new Set<string>()
  const authorizations: string[] = []
  const users = new Map<string, { login: string; id: number }>()
  let down = false

  const server = http.createServer((request, response) => {
    if (down) return void request.socket.destroy()
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const userMatch = /^\/users\/([^/?]+)$/.exec(request.url ?? '')
    if (request.method === 'GET' && userMatch) {
      const user = users.get(decodeURIComponent(userMatch[1]).toLowerCase())
      return user
        ? send(200, { login: user.login, id: user.id, type: 'User' })
        : send(404, { message: 'Not Found' })
    }
    authorizations.push(String(request.headers.authorization ?? ''))
    const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1]
    if (!token || revoked.has(token) || !grants.has(token)) {
      return send(401, { message: 'Bad credentials', status: '401' })
    }
    const match = /^\/repos\/([^/]+)\/([^/?]+)$/.exec(request.url ?? '')
    if (request.method !== 'GET' || !match) return send(404, { message: 'Not Found' })
    const key = `${decodeURIComponent(match[1])}/${decodeURIComponent(match[2])}`.toLowerCase()
    const repository = repositories.get(key)
    const role = grants.get(token)?.get(key)
    if (!repository || (repository.private && !role)) return send(404, { message: 'Not Found' })
    const rank = role ? ROLE_RANK[role] : 0
    return send(200, {
      full_name: repository.fullName,
      private: repository.private,
      permissions: {
        admin: rank >= 4,
        maintain: rank >= 3,
        push: rank >= 2,
        triage: rank >= 2,
        pull: true,
      },
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    authorizations,
    addRepository(fullName, options = {}) {
      repositories.set(fullName.toLowerCase(), { fullName, private: options.private ?? false })
    },
    addUser(login, id) {
      users.set(login.toLowerCase(), { login, id })
    },
    setDown(value) {
      down = value
    },
    grant(token, fullName, role) {
      const forToken = grants.get(token) ?? new Map<string, RepoRole>()
      forToken.set(fullName.toLowerCase(), role)
      grants.set(token, forToken)
    },
    revoke(token) {
      revoked.add(token)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
