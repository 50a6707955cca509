// Proving repository ownership through the GitHub REST API (claiming a node): the token's user
// must have admin or maintain rights on the repository. The base URL is configurable
// (GITHUB_API_URL), so tests talk to a local fake and GitHub Enterprise works too.
import { badGateway, badRequest, forbidden } from '../http/errors'

export interface GithubRepositoryRef {
  owner: string
  repo: string
}

/** owner/repo of a github.com repository URL, or null for anything else. */
export function parseGithubRepository(url: string): GithubRepositoryRef | null {
  const match =
    /^(?:https?:\/\/)?(?:www\.)?github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/i.exec(
      url.trim(),
    )
  if (!match) return null
  return { owner: match[1], repo: match[2] }
}

interface RepositoryAnswer {
  full_name?: string
  permissions?: { admin?: boolean; maintain?: boolean }
}

const TIMEOUT_MS = 10_000

/** Resolves when the token's user administers or maintains the repository; throws otherwise. */
export async function assertCanAdministerRepository(
  apiUrl: string,
  token: string,
  ref: GithubRepositoryRef,
): Promise<void> {
  const name = `${ref.owner}/${ref.repo}`
  let response: Response
  try {
    response = await fetch(
      `${apiUrl}/repos/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.repo)}`,
      {
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token.trim()}`,
          'user-agent': 'comfy-registry',
          'x-github-api-version': '2022-11-28',
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    )
  } catch {
    throw badGateway('GitHub could not be reached to check the repository. Try again later.')
  }
  if (response.status === 401) {
    throw badRequest(
      "Invalid field 'GH_TOKEN': GitHub rejected the token (it is invalid, expired or revoked). Create a new token and try again.",
    )
  }
  if (response.status === 404 || response.status === 403) {
    throw forbidden(
      `The GitHub user of this token cannot access the repository ${name} (it does not exist, or the token has no access to it).`,
    )
  }
  if (!response.ok) {
    throw badGateway(`GitHub answered ${response.status} while checking ${name}. Try again later.`)
  }
  const repository = (await response.json().catch(() => ({}))) as RepositoryAnswer
  if (!repository.permissions?.admin && !repository.permissions?.maintain) {
    throw forbidden(
      `The GitHub user of this token needs admin or maintain rights on ${name} to claim this node.`,
    )
  }
}
