// GitHub's `release` webhook: the signature check and what of an event becomes a release.
// See https://docs.github.com/webhooks/webhook-events-and-payloads#release
import { createHmac, timingSafeEqual } from 'node:crypto'
import { stringRule } from '../http/contract'
import type { Schemas } from '../http/operations'
import { attentionOf, bareVersion, type NewReleaseRow, type ReleaseProject } from './releases'

/** The repositories whose releases are followed (compared in lower case), and their project. */
export const RELEASE_REPOSITORIES: Readonly<Record<string, ReleaseProject>> = {
  'comfyanonymous/comfyui': 'comfyui',
  'comfy-org/desktop': 'desktop',
  'comfy-org/comfyui_frontend': 'comfyui_frontend',
}

/** The actions that make a release public or change it. */
const STORED_ACTIONS = new Set(['published', 'released', 'edited'])

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i

/**
 * Whether `header` is `sha256=<hex HMAC-SHA256 of body with secret>`. The digests are compared
 * in constant time (both 32 bytes); anything else (absent, repeated, malformed) is false.
 */
export function hasValidSignature(secret: string, body: Buffer, header: unknown): boolean {
  if (typeof header !== 'string') return false
  const match = SIGNATURE.exec(header.trim())
  if (!match) return false
  const given = Buffer.from(match[1], 'hex')
  const expected = createHmac('sha256', secret).update(body).digest()
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export type WebhookOutcome = { release: NewReleaseRow } | { ignored: string }

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

let versionRule: ReturnType<typeof stringRule> | undefined

/** The release an event asks to store, or why it is ignored. */
export function releaseOfEvent(
  eventName: string | undefined,
  event: Schemas['GithubReleaseEvent'],
): WebhookOutcome {
  const release = event.release
  if (eventName !== undefined && eventName !== 'release') {
    return {
      ignored: `GitHub '${eventName}' events are acknowledged and ignored: only 'release' events are stored.`,
    }
  }
  if (!release) return { ignored: 'The event has no release: only `release` events are stored.' }
  const action = event.action ?? ''
  if (!STORED_ACTIONS.has(action)) {
    return {
      ignored: `Release action '${action}' is ignored: only ${[...STORED_ACTIONS].join(', ')} are stored.`,
    }
  }
  const repository = text(event.repository?.full_name) ?? ''
  const project = RELEASE_REPOSITORIES[repository.toLowerCase()]
  if (!project) {
    return {
      ignored: `Repository '${repository}' is not followed: only ${Object.keys(RELEASE_REPOSITORIES).join(', ')} are (any case).`,
    }
  }
  if (release.draft === true) return { ignored: 'Drafts are not stored until they are published.' }
  // Prereleases are not stored: release notes tell users of the app what they can update to
  // (`current_version`), and a prerelease is not offered to them. When it is promoted, GitHub
  // sends `released` (and `edited`) with `prerelease: false`, and it is stored then.
  if (release.prerelease === true) {
    return { ignored: 'Prereleases are not stored; they are once promoted to a release.' }
  }
  const version = text(release.tag_name)?.trim() ?? ''
  versionRule ??= stringRule('ReleaseVersion')
  if (
    version.length > versionRule.maxLength ||
    !versionRule.pattern.test(version) ||
    !bareVersion(version)
  ) {
    return {
      ignored: `Tag '${version}' is not a release version: it must be a semantic version, e.g. v1.2.3.`,
    }
  }
  const content = text(release.body) ?? ''
  // GitHub shows the tag as the title of a release without a name.
  const title = text(release.name)?.trim() || version
  const published = Date.parse(text(release.published_at) ?? '')
  const id = release.id
  return {
    release: {
      project,
      version,
      title,
      content,
      attention: attentionOf(version, { title, content }),
      ...(Number.isNaN(published) ? {} : { publishedAt: new Date(published) }),
      ...(typeof id === 'number' && Number.isSafeInteger(id) ? { githubReleaseId: id } : {}),
    },
  }
}
