/**
 * Demo trusted publishing (issue 30): the demo upscaler moved from a personal access token in CI
 * to trusted publishing. Its first versions were published with the token `ci`, the latest from
 * the workflow `publish.yml` of comfy-demo/comfyui-demo-upscaler; the publisher's audit trail
 * tells the story (token created, versions published, trusted publisher added, token deleted).
 * Written after the nodes; nothing is written when the node is not in the demo data.
 */
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import {
  nodeVersions,
  publisherEvents,
  trustedPublishers,
  type VersionProvenance,
} from '../db/schema'
import { DEMO_PUBLISHER, DEMO_PUBLISHER_ACCOUNT } from './accounts'

export const DEMO_TRUSTED_NODE_ID = 'comfyui-demo-upscaler'
export const DEMO_TRUSTED_PUBLISHER = {
  repositoryOwner: 'comfy-demo',
  /** Made up: the demo's GitHub account is not a real one. */
  repositoryOwnerId: '160000001',
  repositoryName: DEMO_TRUSTED_NODE_ID,
  workflowFilename: 'publish.yml',
  environment: '',
} as const
const TOKEN_NAME = 'ci'
const MINUTE = 60_000

/** Provenance of a version published from the demo workflow, at the tag of its version. */
function workflowProvenance(version: string, index: number): VersionProvenance {
  const repository = `${DEMO_TRUSTED_PUBLISHER.repositoryOwner}/${DEMO_TRUSTED_PUBLISHER.repositoryName}`
  const runId = String(9_100_000_000 + index)
  return {
    method: 'workflow',
    repository,
    commit_sha: `${(0xabc1234 + index).toString(16)}${'0'.repeat(33)}`,
    workflow_filename: DEMO_TRUSTED_PUBLISHER.workflowFilename,
    workflow_ref: `${repository}/.github/workflows/${DEMO_TRUSTED_PUBLISHER.workflowFilename}@refs/tags/v${version}`,
    run_url: `https://github.com/${repository}/actions/runs/${runId}/attempts/1`,
  }
}

/** Returns the number of audit events written. */
export async function loadDemoTrustedPublishing(db: Db): Promise<number> {
  const versions = await db
    .select({
      id: nodeVersions.id,
      version: nodeVersions.version,
      createdAt: nodeVersions.createdAt,
    })
    .from(nodeVersions)
    .where(eq(nodeVersions.nodeId, DEMO_TRUSTED_NODE_ID))
    .orderBy(asc(nodeVersions.createdAt))
  if (versions.length < 2) return 0
  const actor = DEMO_PUBLISHER_ACCOUNT.email
  const at = (date: Date, minutes: number) => new Date(new Date(date).getTime() + minutes * MINUTE)
  const first = versions[0]
  const last = versions[versions.length - 1]
  const events: (typeof publisherEvents.$inferInsert)[] = [
    {
      publisherId: DEMO_PUBLISHER.id,
      kind: 'token.create',
      actor,
      detail: `Created token '${TOKEN_NAME}'.`,
      createdAt: at(first.createdAt, -60),
    },
  ]
  const trustedAt = at(last.createdAt, -30)
  return db.transaction(async (tx) => {
    for (const [index, version] of versions.entries()) {
      const fromWorkflow = version.id === last.id
      const provenance: VersionProvenance = fromWorkflow
        ? workflowProvenance(version.version, index)
        : { method: 'token', token_name: TOKEN_NAME }
      await tx.update(nodeVersions).set({ provenance }).where(eq(nodeVersions.id, version.id))
      events.push({
        publisherId: DEMO_PUBLISHER.id,
        kind: 'version.publish',
        actor: fromWorkflow ? `workflow ${provenance.repository}` : `token ${TOKEN_NAME}`,
        nodeId: DEMO_TRUSTED_NODE_ID,
        detail: fromWorkflow
          ? `Published version ${version.version} of node '${DEMO_TRUSTED_NODE_ID}' from ${provenance.repository}@${(provenance.commit_sha ?? '').slice(0, 7)} by workflow ${DEMO_TRUSTED_PUBLISHER.workflowFilename}.`
          : `Published version ${version.version} of node '${DEMO_TRUSTED_NODE_ID}' with token '${TOKEN_NAME}'.`,
        createdAt: version.createdAt,
      })
    }
    await tx.insert(trustedPublishers).values({
      nodeId: DEMO_TRUSTED_NODE_ID,
      ...DEMO_TRUSTED_PUBLISHER,
      createdBy: actor,
      createdAt: trustedAt,
      lastUsedAt: at(last.createdAt, -1),
    })
    const repository = `${DEMO_TRUSTED_PUBLISHER.repositoryOwner}/${DEMO_TRUSTED_PUBLISHER.repositoryName}`
    events.push(
      {
        publisherId: DEMO_PUBLISHER.id,
        kind: 'trusted_publisher.add',
        actor,
        nodeId: DEMO_TRUSTED_NODE_ID,
        detail: `Trusted ${repository}, workflow ${DEMO_TRUSTED_PUBLISHER.workflowFilename} to publish node '${DEMO_TRUSTED_NODE_ID}'.`,
        createdAt: trustedAt,
      },
      {
        publisherId: DEMO_PUBLISHER.id,
        kind: 'token.delete',
        actor,
        detail: `Deleted token '${TOKEN_NAME}'.`,
        createdAt: at(last.createdAt, 10),
      },
    )
    await tx.insert(publisherEvents).values(events)
    return events.length
  })
}
