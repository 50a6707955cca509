// Which version the node page's install box offers. The API's `latest_version` stays the newest
// Active version by semver even when it is deprecated (ComfyUI-Manager and comfy-cli read it and
// its `deprecated` flag, docs/ARCHITECTURE.md), so the page itself steps past deprecated ones.
import type { NodeVersion } from '@/src/api/generated/model'
import { NodeVersionStatus } from '@/src/api/generated/model/nodeVersionStatus'

export interface InstallChoice {
  version: NodeVersion
  /** Not the registry's latest: the command names the version (`id@version`). */
  pinned: boolean
  /** The visitor asked for this version (`?version=`), deprecated or not. */
  requested: boolean
}

/**
 * The version to offer: the one asked for by version when it is Active; else the latest unless
 * it is deprecated; else the newest Active version that is not deprecated (`versions` newest
 * first, as the API lists them); none when every Active version shown is deprecated.
 */
export function installChoice(
  latest: NodeVersion | undefined,
  versions: readonly NodeVersion[] | undefined,
  requested?: string,
): InstallChoice | undefined {
  if (!latest) return undefined
  const active = (versions ?? []).filter(
    (version) => version.status === NodeVersionStatus.NodeVersionStatusActive,
  )
  if (requested) {
    const asked =
      latest.version === requested ? latest : active.find((v) => v.version === requested)
    if (asked) {
      return { version: asked, pinned: asked.version !== latest.version, requested: true }
    }
  }
  if (!latest.deprecated) return { version: latest, pinned: false, requested: false }
  const fallback = active.find((version) => !version.deprecated)
  return fallback && { version: fallback, pinned: true, requested: false }
}
