// POST /api/revalidate/nodes/{nodeId}: regenerate a node's statically cached page in every
// language now, instead of when its revalidate time runs out. The owner tools call it after an
// edit so the public page (and its server-rendered markdown) shows the change at once.
//
// Each call costs about half a second of CPU, so it needs proof and is limited:
// - the caller's Firebase ID token (Authorization: Bearer), checked by the registry API: the node
//   must exist for the caller (404 otherwise), and the caller must be able to edit it (403), or,
//   for a node the public no longer sees (deleted, banned), be one who still sees it (its
//   publisher's members and admins);
// - at most REVALIDATE_RATE_LIMIT calls per client address (429 with Retry-After beyond);
// - a node is regenerated at most once per REVALIDATE_INTERVAL_MS; calls meanwhile wait and share
//   the next run, so no edit is missed.
// The registry API's pipeline calls it too, when a version becomes Active, with the secret both
// share (REVALIDATE_SECRET, header x-revalidate-secret) instead of a user's token.
import { timingSafeEqual } from 'node:crypto'
import type { NextApiRequest, NextApiResponse } from 'next'
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  REVALIDATE_INTERVAL_MS,
  REVALIDATE_RATE_LIMIT,
} from '@/src/lib/constants'
import { perKeyCoalescer } from '@/src/lib/coalesce'
import { isNodeId } from '@/src/lib/contract-ids'
import { nodePath } from '@/src/lib/paths'
import { serverApiUrl } from '@/src/lib/public-env'
import { tokenBuckets } from '@/src/lib/rate-limit'

const coalesce = perKeyCoalescer(REVALIDATE_INTERVAL_MS)
const takeToken = tokenBuckets(REVALIDATE_RATE_LIMIT)

export function nodePagePaths(nodeId: string, defaultLocale: string): string[] {
  const path = nodePath(nodeId)
  return LANGUAGES.map(({ code }) => (code === defaultLocale ? path : `/${code}${path}`))
}

function regenerate(res: NextApiResponse, nodeId: string): Promise<void> {
  return coalesce(nodeId.toLowerCase(), async () => {
    await Promise.all(nodePagePaths(nodeId, DEFAULT_LANGUAGE).map((path) => res.revalidate(path)))
  })
}

type Refusal = { status: number; error: string; message: string }

/** Asks the registry API whether the caller may regenerate this node's page. */
async function refusal(nodeId: string, authorization: string): Promise<Refusal | null> {
  const api = serverApiUrl()
  const headers = { authorization }
  const node = await fetch(`${api}/nodes/${encodeURIComponent(nodeId)}`, { headers })
  if (node.status === 401) {
    return {
      status: 401,
      error: 'Unauthorized',
      message: 'Sign in again: your token is not valid.',
    }
  }
  if (node.status === 404) {
    return { status: 404, error: 'NotFound', message: `Node '${nodeId}' does not exist.` }
  }
  if (!node.ok) throw new Error(`The registry API answered ${node.status} for the node.`)
  const { publisher, status } = (await node.json()) as {
    publisher?: { id?: string }
    status?: string
  }
  // Only its publisher's members and admins still see a node the public does not.
  if (status !== 'NodeStatusActive') return null
  const permission = await fetch(
    `${api}/publishers/${encodeURIComponent(publisher?.id ?? '')}/nodes/${encodeURIComponent(nodeId)}/permissions`,
    { headers },
  )
  if (permission.status === 401) {
    return {
      status: 401,
      error: 'Unauthorized',
      message: 'Sign in again: your token is not valid.',
    }
  }
  const { canEdit } = permission.ok ? ((await permission.json()) as { canEdit?: boolean }) : {}
  return canEdit === true
    ? null
    : { status: 403, error: 'Forbidden', message: 'Only the node’s owners and admins can do this.' }
}

/** Whether the request carries the secret this website shares with the registry API. */
function fromRegistryApi(req: NextApiRequest): boolean {
  const secret = process.env.REVALIDATE_SECRET ?? ''
  const sent = req.headers['x-revalidate-secret']
  if (!secret || typeof sent !== 'string') return false
  const [a, b] = [Buffer.from(sent), Buffer.from(secret)]
  return a.length === b.length && timingSafeEqual(a, b)
}

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST')
    return res.status(405).json({ error: 'MethodNotAllowed', message: 'Use POST.' })
  }
  const nodeId = typeof req.query.nodeId === 'string' ? req.query.nodeId : ''
  if (!isNodeId(nodeId)) {
    return res.status(400).json({ error: 'BadRequest', message: 'nodeId is not a valid node id.' })
  }
  if (fromRegistryApi(req)) {
    try {
      await regenerate(res, nodeId)
      return res.status(204).end()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return res.status(502).json({ error: 'RevalidationFailed', message })
    }
  }
  const decision = takeToken(req.socket.remoteAddress ?? 'unknown')
  if (!decision.allowed) {
    res.setHeader('Retry-After', String(Math.ceil(decision.retryAfterMs / 1000)))
    return res.status(429).json({
      error: 'TooManyRequests',
      message: 'Too many page refreshes from this address. Try again in a minute.',
    })
  }
  const authorization = req.headers.authorization ?? ''
  if (!/^Bearer\s+\S+$/i.test(authorization)) {
    return res.status(401).json({ error: 'Unauthorized', message: 'Sign in first.' })
  }
  try {
    const refused = await refusal(nodeId, authorization)
    if (refused) {
      return res.status(refused.status).json({ error: refused.error, message: refused.message })
    }
    await regenerate(res, nodeId)
    return res.status(204).end()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return res.status(502).json({ error: 'RevalidationFailed', message })
  }
}
