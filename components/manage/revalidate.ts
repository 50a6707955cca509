// The node page is statically regenerated; owners' edits ask for a fresh copy at once.

/** Regenerates the node's cached public page (see pages/api/revalidate/nodes/[nodeId].ts). */
export async function revalidateNodePage(nodeId: string): Promise<void> {
  try {
    await fetch(`/api/revalidate/nodes/${encodeURIComponent(nodeId)}`, { method: 'POST' })
  } catch {
    // The page then follows at its next regeneration; the data on screen is already fresh.
  }
}
