// The node page is statically regenerated; owners' edits ask for a fresh copy at once, proving
// with their sign-in token that they may (pages/api/revalidate/nodes/[nodeId].ts).
import { currentIdToken } from '@/src/api/mutator'

/** Regenerates the node's cached public page. */
export async function revalidateNodePage(nodeId: string): Promise<void> {
  try {
    const token = await currentIdToken()
    await fetch(`/api/revalidate/nodes/${encodeURIComponent(nodeId)}`, {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    })
  } catch {
    // The page then follows at its next regeneration; the data on screen is already fresh.
  }
}
