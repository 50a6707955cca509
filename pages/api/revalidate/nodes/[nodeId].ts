// POST /api/revalidate/nodes/{nodeId}: regenerate a node's statically cached page in every
// language now, instead of when its revalidate time runs out. The owner tools call it after an
// edit so the public page (and its server-rendered markdown) shows the change at once. It only
// re-renders from the registry API's current data, so it needs no sign-in; a node is regenerated
// at most once per REVALIDATE_INTERVAL_MS (calls meanwhile wait and share the next run), so it
// cannot be used to load the server, and no edit is missed.
import type { NextApiRequest, NextApiResponse } from 'next'
import { DEFAULT_LANGUAGE, LANGUAGES } from '@/src/lib/constants'
import { perKeyCoalescer } from '@/src/lib/coalesce'
import { nodePath } from '@/src/lib/paths'

export const REVALIDATE_INTERVAL_MS = 2000
const coalesce = perKeyCoalescer(REVALIDATE_INTERVAL_MS)

/** The `NodeId` pattern of openapi.yml. */
const NODE_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?$/

export function nodePagePaths(nodeId: string, defaultLocale: string): string[] {
  const path = nodePath(nodeId)
  return LANGUAGES.map(({ code }) => (code === defaultLocale ? path : `/${code}${path}`))
}

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST')
    return res.status(405).json({ error: 'MethodNotAllowed', message: 'Use POST.' })
  }
  const nodeId = typeof req.query.nodeId === 'string' ? req.query.nodeId : ''
  if (!NODE_ID.test(nodeId)) {
    return res.status(400).json({ error: 'BadRequest', message: 'nodeId is not a valid node id.' })
  }
  try {
    await coalesce(nodeId.toLowerCase(), async () => {
      await Promise.all(nodePagePaths(nodeId, DEFAULT_LANGUAGE).map((path) => res.revalidate(path)))
    })
    return res.status(204).end()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return res.status(502).json({ error: 'RevalidationFailed', message })
  }
}
