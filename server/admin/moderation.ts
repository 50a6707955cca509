// Admins' changes to nodes (admin fields, ban, unban, creation) and publishers (ban, unban), each
// with its audit rows in the same transaction. The values recorded for nodes are JSON texts in a
// fixed key order (nodeStatusState, adminFieldsState), so undo.ts can compare and restore them.
import { eq, sql } from 'drizzle-orm'
import { UNCLAIMED_PUBLISHER } from '@/src/lib/constants'
import type { Db } from '../db/client'
import {
  nodeColumns,
  nodes,
  publishers,
  type NodeRow,
  type NodeStatus,
  type Publisher,
  type PublisherStatus,
} from '../db/schema'
import { conflict, notFound } from '../http/errors'
import type { Caller } from '../http/context'
import type { Schemas } from '../http/operations'
import { labelList, shortText } from '../http/validate'
import { recordActions, type ActionRecord } from './audit'
import { requiredReason } from './decisions'

type AdminUpdateNodeRequest = Schemas['AdminUpdateNodeRequest']
type AdminUpdatePublisherRequest = Schemas['AdminUpdatePublisherRequest']

export interface AdminFields {
  tagsAdmin: string[]
  searchRanking: number | null
  preemptedComfyNodeNames: string[]
  category: string
}

export interface NodeStatusState {
  status: NodeStatus
  statusDetail: string
}

export function adminFieldsOf(node: NodeRow): AdminFields {
  return {
    tagsAdmin: node.tagsAdmin,
    searchRanking: node.searchRanking,
    preemptedComfyNodeNames: node.preemptedComfyNodeNames,
    category: node.category,
  }
}

export function adminFieldsState(fields: AdminFields): string {
  return JSON.stringify({
    tags_admin: fields.tagsAdmin,
    search_ranking: fields.searchRanking,
    preempted_comfy_node_names: fields.preemptedComfyNodeNames,
    category: fields.category,
  })
}

export function nodeStatusState(state: NodeStatusState): string {
  return JSON.stringify({ status: state.status, status_detail: state.statusDetail })
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
const NODE_STATUS_NAMES: readonly string[] = [
  'NodeStatusActive',
  'NodeStatusDeleted',
  'NodeStatusBanned',
] satisfies NodeStatus[]
const isNodeStatus = (value: unknown): value is NodeStatus =>
  typeof value === 'string' && NODE_STATUS_NAMES.includes(value)

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

export function parseAdminFields(text: string): AdminFields | null {
  const value = parseJson(text)
  if (!isObject(value)) return null
  const { tags_admin, search_ranking, preempted_comfy_node_names, category } = value
  if (!isStringArray(tags_admin) || !isStringArray(preempted_comfy_node_names)) return null
  if (typeof category !== 'string') return null
  if (search_ranking !== null && typeof search_ranking !== 'number') return null
  return {
    tagsAdmin: tags_admin,
    searchRanking: search_ranking,
    preemptedComfyNodeNames: preempted_comfy_node_names,
    category,
  }
}

export function parseNodeStatusState(text: string): NodeStatusState | null {
  const value = parseJson(text)
  if (!isObject(value) || !isNodeStatus(value.status) || typeof value.status_detail !== 'string') {
    return null
  }
  return { status: value.status, statusDetail: value.status_detail }
}

/** A node locked for this transaction (by id, any case). */
export async function lockNode(tx: Db, nodeId: string): Promise<NodeRow | null> {
  const [row] = await tx
    .select(nodeColumns)
    .from(nodes)
    .where(eq(sql`lower(${nodes.id})`, nodeId.toLowerCase()))
    .for('update')
  return row ?? null
}

export async function lockPublisher(tx: Db, publisherId: string): Promise<Publisher | null> {
  const [row] = await tx
    .select()
    .from(publishers)
    .where(eq(publishers.id, publisherId))
    .for('update')
  return row ?? null
}

export async function writeAdminFields(tx: Db, nodeId: string, fields: AdminFields) {
  await tx
    .update(nodes)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(nodes.id, nodeId))
}

export async function writeNodeStatus(tx: Db, nodeId: string, state: NodeStatusState) {
  await tx
    .update(nodes)
    .set({ status: state.status, statusDetail: state.statusDetail, updatedAt: sql`now()` })
    .where(eq(nodes.id, nodeId))
}

export async function writePublisherStatus(tx: Db, publisherId: string, status: PublisherStatus) {
  await tx.update(publishers).set({ status }).where(eq(publishers.id, publisherId))
}

/** The admin fields of a request, checked and trimmed, over the node's current ones. */
function requestedAdminFields(current: AdminFields, body: AdminUpdateNodeRequest): AdminFields {
  const preempted = body.preempted_comfy_node_names
  return {
    tagsAdmin: labelList('tags_admin', body.tags_admin) ?? current.tagsAdmin,
    searchRanking: body.search_ranking ?? current.searchRanking,
    preemptedComfyNodeNames:
      preempted === undefined
        ? current.preemptedComfyNodeNames
        : [...new Set(preempted.map((name) => name.trim()).filter(Boolean))],
    category: shortText('category', body.category) ?? current.category,
  }
}

/**
 * adminUpdateNode: admin fields and/or ban/unban, recorded; answers the node's id and whether
 * anything changed.
 */
export async function updateNodeAsAdmin(
  db: Db,
  actor: Caller,
  nodeId: string,
  body: AdminUpdateNodeRequest,
): Promise<{ nodeId: string; changed: boolean }> {
  const reason = requiredReason(
    body.status === 'NodeStatusBanned',
    body.status_reason,
    'status_reason',
    'ban a node',
  )
  return db.transaction(async (tx) => {
    const node = await lockNode(tx, nodeId)
    if (!node) throw notFound(`Node '${nodeId}' does not exist.`)
    if (node.status === 'NodeStatusDeleted') {
      throw conflict(`Node '${node.id}' is deleted; it cannot be changed.`)
    }
    const records: ActionRecord[] = []
    const before = adminFieldsOf(node)
    const after = requestedAdminFields(before, body)
    if (adminFieldsState(after) !== adminFieldsState(before)) {
      await writeAdminFields(tx, node.id, after)
      records.push({
        action: 'node.update',
        subjectType: 'node',
        subjectId: node.id,
        subjectLabel: node.id,
        fromValue: adminFieldsState(before),
        toValue: adminFieldsState(after),
        reason,
      })
    }
    if (body.status !== undefined && body.status !== node.status) {
      const from: NodeStatusState = { status: node.status, statusDetail: node.statusDetail }
      const to: NodeStatusState = { status: body.status, statusDetail: reason }
      await writeNodeStatus(tx, node.id, to)
      records.push({
        action: body.status === 'NodeStatusBanned' ? 'node.ban' : 'node.unban',
        subjectType: 'node',
        subjectId: node.id,
        subjectLabel: node.id,
        fromValue: nodeStatusState(from),
        toValue: nodeStatusState(to),
        reason,
      })
    }
    await recordActions(tx, actor, records)
    return { nodeId: node.id, changed: records.length > 0 }
  })
}

/**
 * adminUpdatePublisher: ban or unban, recorded; answers the publisher as it is now and whether
 * its status changed.
 */
export async function updatePublisherAsAdmin(
  db: Db,
  actor: Caller,
  publisherId: string,
  body: AdminUpdatePublisherRequest,
): Promise<{ publisher: Publisher; changed: boolean }> {
  const reason = requiredReason(
    body.status === 'PublisherStatusBanned',
    body.status_reason,
    'status_reason',
    'ban a publisher',
  )
  return db.transaction(async (tx) => {
    const publisher = await lockPublisher(tx, publisherId)
    if (!publisher) throw notFound(`Publisher '${publisherId}' does not exist.`)
    if (publisher.id === UNCLAIMED_PUBLISHER.id) {
      throw conflict(
        `'${publisher.id}' is the registry's reserved publisher of unclaimed nodes: it cannot be banned. Ban its nodes instead.`,
      )
    }
    if (body.status === publisher.status) return { publisher, changed: false }
    await writePublisherStatus(tx, publisher.id, body.status)
    await recordActions(tx, actor, [
      {
        action: body.status === 'PublisherStatusBanned' ? 'publisher.ban' : 'publisher.unban',
        subjectType: 'publisher',
        subjectId: publisher.id,
        subjectLabel: publisher.id,
        fromValue: publisher.status,
        toValue: body.status,
        reason,
      },
    ])
    return { publisher: { ...publisher, status: body.status }, changed: true }
  })
}

/** The audit row of adminCreateNode: who created which node where, with its admin fields. */
export function nodeCreatedRecord(node: NodeRow): ActionRecord {
  return {
    action: 'node.create',
    subjectType: 'node',
    subjectId: node.id,
    subjectLabel: node.id,
    fromValue: '',
    toValue: JSON.stringify({
      publisher_id: node.publisherId,
      repository: node.repository,
      tags_admin: node.tagsAdmin,
    }),
    reason: '',
  }
}
