// Whether an address's id could name anything, by the contract's own rules (openapi.yml's NodeId
// and PublisherId, through Orval's generated schemas): pages answer 404 for an impossible id at
// once instead of asking the API, which would only refuse it with a 400.
import { getNodeParams, getPublisherParams } from '@/src/api/generated/rules.zod'

export function isNodeId(value: string): boolean {
  return getNodeParams.shape.nodeId.safeParse(value).success
}

export function isPublisherId(value: string): boolean {
  return getPublisherParams.shape.publisherId.safeParse(value).success
}
