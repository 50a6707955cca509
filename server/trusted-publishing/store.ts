// A node's trusted publishers: the GitHub Actions workflows allowed to publish it with no stored
// secret. Adding one pins the repository owner's numeric GitHub id; removing one is immediate
// (the publish tokens it minted lose their trusted publisher and are refused).
import { and, asc, count, eq } from 'drizzle-orm'
import type { Schemas } from '../http/operations'
import type { Db } from '../db/client'
import { trustedPublishers, type TrustedPublisherRow } from '../db/schema'
import { badGateway, badRequest, conflict } from '../http/errors'

type ApiTrustedPublisher = Schemas['TrustedPublisher']

/** openapi.yml: "A node has at most 20." */
export const MAX_TRUSTED_PUBLISHERS = 20
const TIMEOUT_MS = 10_000

export function toApiTrustedPublisher(row: TrustedPublisherRow): ApiTrustedPublisher {
  return {
    id: row.id,
    node_id: row.nodeId,
    repository_owner: row.repositoryOwner,
    repository_owner_id: row.repositoryOwnerId,
    repository_name: row.repositoryName,
    workflow_filename: row.workflowFilename,
    environment: row.environment,
    created_at: new Date(row.createdAt).toISOString(),
    created_by: row.createdBy,
    last_used_at: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
  }
}

/** The node's trusted publishers, oldest first. */
export async function listTrustedPublishers(
  db: Db,
  nodeId: string,
): Promise<TrustedPublisherRow[]> {
  return db
    .select()
    .from(trustedPublishers)
    .where(eq(trustedPublishers.nodeId, nodeId))
    .orderBy(asc(trustedPublishers.createdAt), asc(trustedPublishers.id))
}

/**
 * The numeric id of a GitHub user or organisation (`GET /users/{owner}` answers both), pinned so
 * a deleted and re-created account of the same name never matches.
 */
export async function lookupGithubOwnerId(apiUrl: string, owner: string): Promise<string> {
  let response: Response
  try {
    response = await fetch(`${apiUrl}/users/${encodeURIComponent(owner)}`, {
      headers: {
        accept: 'application/vnd.github+json',
        'user-agent': 'comfy-registry',
        'x-github-api-version': '2022-11-28',
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    throw badGateway(`GitHub could not be reached to look up '${owner}'. Try again later.`)
  }
  if (response.status === 404) {
    throw badRequest(
      `Invalid field 'repository_owner': GitHub has no user or organisation '${owner}'.`,
    )
  }
  if (!response.ok) {
    throw badGateway(
      `GitHub answered ${response.status} while looking up '${owner}'. Try again later.`,
    )
  }
  const user: unknown = await response.json().catch(() => null)
  const id: unknown =
    typeof user === 'object' && user !== null ? Reflect.get(user, 'id') : undefined
  if (typeof id !== 'number' && typeof id !== 'string') {
    throw badGateway(`GitHub's answer for '${owner}' has no id. Try again later.`)
  }
  return String(id)
}

export interface NewTrustedPublisher {
  repositoryOwner: string
  repositoryOwnerId: string
  repositoryName: string
  workflowFilename: string
  environment: string
  createdBy: string
}

export async function insertTrustedPublisher(
  db: Db,
  nodeId: string,
  input: NewTrustedPublisher,
): Promise<TrustedPublisherRow> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(trustedPublishers)
    .where(eq(trustedPublishers.nodeId, nodeId))
  if (total >= MAX_TRUSTED_PUBLISHERS) {
    throw conflict(
      `Node '${nodeId}' already has ${MAX_TRUSTED_PUBLISHERS} trusted publishers, the most a node can have. Remove one first.`,
    )
  }
  const [row] = await db
    .insert(trustedPublishers)
    .values({ nodeId, ...input })
    .onConflictDoNothing()
    .returning()
  if (!row) {
    throw conflict(`Node '${nodeId}' already trusts ${describeTrustedPublisher(input)}.`)
  }
  return row
}

export async function deleteTrustedPublisher(
  db: Db,
  nodeId: string,
  id: string,
): Promise<TrustedPublisherRow | undefined> {
  const [row] = await db
    .delete(trustedPublishers)
    .where(and(eq(trustedPublishers.id, id), eq(trustedPublishers.nodeId, nodeId)))
    .returning()
  return row
}

/** "owner/name, workflow publish.yml (environment release)": for messages and the audit trail. */
export function describeTrustedPublisher(
  row: Pick<
    TrustedPublisherRow,
    'repositoryOwner' | 'repositoryName' | 'workflowFilename' | 'environment'
  >,
): string {
  const environment = row.environment ? `, environment '${row.environment}'` : ''
  return `${row.repositoryOwner}/${row.repositoryName}, workflow ${row.workflowFilename}${environment}`
}

/** Records that a workflow exchanged a token just now. */
export async function touchTrustedPublisher(db: Db, id: string, now: Date): Promise<void> {
  await db.update(trustedPublishers).set({ lastUsedAt: now }).where(eq(trustedPublishers.id, id))
}
