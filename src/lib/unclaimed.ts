// Unclaimed nodes carry the reserved publisher UNCLAIMED_PUBLISHER (see src/lib/constants.ts):
// pages show "Claim this node" for them instead of a publisher link.
import type { Node, Publisher } from '@/src/api/generated/model'
import { UNCLAIMED_PUBLISHER } from './constants'

export function isUnclaimed(node: Pick<Node, 'publisher'>): boolean {
  return !node.publisher || node.publisher.id === UNCLAIMED_PUBLISHER.id
}

/** The node's publisher, unless the node is unclaimed. */
export function claimedPublisher(node: Pick<Node, 'publisher'>): Publisher | undefined {
  return isUnclaimed(node) ? undefined : node.publisher
}
