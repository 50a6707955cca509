// Database rows → the API's shapes (openapi.yml, typed by server/http/contract-types.ts). The contract's
// mixed casing (createdAt but node_id) lives here and only here.
import type { Schemas } from './operations'
import type { ComfyNode, NodeRow, NodeVersion, Publisher } from '../db/schema'
import { matchLicense } from '@/src/lib/license-match'
import { parseLicenseField } from '@/src/lib/licenses'

type ApiComfyNode = Schemas['ComfyNode']
type ApiNode = Schemas['Node']
type ApiNodeVersion = Schemas['NodeVersion']
type ApiPublisher = Schemas['Publisher']
type ApiPublisherInvitation = Schemas['PublisherInvitation']
type ApiPublisherMember = Schemas['PublisherMember']

const iso = (date: Date | string) => new Date(date).toISOString()

/** Where a version's archive can be downloaded; only versions that have one get a link. */
export function downloadUrl(publicUrl: string, nodeId: string, version: string): string {
  return `${publicUrl}/archives/${encodeURIComponent(nodeId)}/${encodeURIComponent(version)}.zip`
}

/**
 * Whether a member of the version's publisher (or an admin) may download an archive that is not
 * public: members their Pending and Flagged versions (to see what was reviewed), admins any.
 */
export function mayDownloadHidden(status: NodeVersion['status'], isAdmin: boolean): boolean {
  return isAdmin || status === 'NodeVersionStatusPending' || status === 'NodeVersionStatusFlagged'
}

export interface VersionView {
  publicUrl: string
  /** Owners and admins see why a version has its status and what the scan found. */
  withStatusReason: boolean
  viewerIsAdmin: boolean
}

export function toApiNodeVersion(row: NodeVersion, view: VersionView): ApiNodeVersion {
  // Archives are public for Active versions; the publisher's members and admins (the callers
  // who see status reasons) also download the others with their token (downloadNodeVersionArchive).
  const installable =
    row.storageKey !== null &&
    (row.status === 'NodeVersionStatusActive' ||
      (view.withStatusReason && mayDownloadHidden(row.status, view.viewerIsAdmin)))
  return {
    id: row.id,
    version: row.version,
    createdAt: iso(row.createdAt),
    changelog: row.changelog,
    dependencies: row.dependencies,
    downloadUrl: installable ? downloadUrl(view.publicUrl, row.nodeId, row.version) : undefined,
    deprecated: row.deprecated,
    deprecation_message: row.deprecationMessage,
    status: row.status,
    status_reason: view.withStatusReason ? row.statusReason : undefined,
    node_id: row.nodeId,
    comfy_node_extract_status: row.comfyNodeExtractStatus,
    comfy_node_extract_reason: row.comfyNodeExtractReason || undefined,
    pipeline_state: row.pipelineState,
    supported_os: row.supportedOs,
    supported_accelerators: row.supportedAccelerators,
    supported_comfyui_version: row.supportedComfyuiVersion,
    supported_comfyui_frontend_version: row.supportedComfyuiFrontendVersion,
    scan_findings: view.withStatusReason ? row.scanFindings : undefined,
    // Public: whether the checks found nothing (what they found stays with owners and admins).
    checks_passed: row.scannedAt === null ? undefined : row.scanFindings.length === 0,
    archive_size: view.withStatusReason ? (row.archiveSize ?? undefined) : undefined,
    // Public: where a version came from is what a user checks before installing it.
    provenance: row.provenance,
  }
}

export function toApiPublisher(
  row: Publisher,
  members?: ApiPublisherMember[],
  invitations?: ApiPublisherInvitation[],
): ApiPublisher {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    website: row.website,
    support: row.support,
    source_code_repo: row.sourceCodeRepo,
    logo: row.logo,
    createdAt: iso(row.createdAt),
    status: row.status,
    members,
    invitations,
  }
}

export interface NodeWithRelations {
  node: NodeRow
  latestVersion: NodeVersion | null
  publisher: Publisher
  comfyNodesMatched?: number
}

/** `{"text": …}` licences seen lately → what they matched ('' for none); texts repeat per node. */
const matchedTexts = new Map<string, string>()
const MATCHED_TEXTS_KEPT = 500

function matchLicenseText(text: string): string | undefined {
  let id = matchedTexts.get(text)
  if (id === undefined) {
    id = matchLicense(text) ?? ''
    if (matchedTexts.size >= MATCHED_TEXTS_KEPT) matchedTexts.clear()
    matchedTexts.set(text, id)
  }
  return id || undefined
}

/**
 * `license_spdx` and `license_file` (openapi.yml, Node): the field itself when it is an SPDX id,
 * its `{"text": …}` identified, else the licence file of the latest version's archive.
 */
export function derivedLicense(license: string, latest: NodeVersion | null) {
  const field = parseLicenseField(license)
  const license_spdx =
    field.kind === 'spdx'
      ? field.id
      : field.kind === 'text'
        ? matchLicenseText(field.text)
        : latest?.licenseFileSpdx || undefined
  return { license_spdx, license_file: latest?.licenseFile || undefined }
}

export function toApiNode(row: NodeWithRelations, view: VersionView): ApiNode {
  const { node } = row
  return {
    id: node.id,
    name: node.name,
    description: node.description,
    author: node.author,
    license: node.license,
    ...derivedLicense(node.license, row.latestVersion),
    icon: node.icon,
    banner_url: node.bannerUrl,
    repository: node.repository,
    tags: node.tags,
    category: node.category,
    deprecated: node.deprecated,
    deprecation_message: node.deprecationMessage,
    // Omitted, never null, without an Active version (openapi.yml, Node.latest_version).
    latest_version: row.latestVersion ? toApiNodeVersion(row.latestVersion, view) : undefined,
    rating: node.rating,
    downloads: node.downloads,
    github_stars: node.githubStars,
    publisher: toApiPublisher(row.publisher),
    status: node.status,
    status_detail: node.statusDetail,
    created_at: iso(node.createdAt),
    supported_os: node.supportedOs,
    supported_accelerators: node.supportedAccelerators,
    supported_comfyui_version: node.supportedComfyuiVersion,
    supported_comfyui_frontend_version: node.supportedComfyuiFrontendVersion,
    tags_admin: node.tagsAdmin,
    search_ranking: node.searchRanking ?? undefined,
    preempted_comfy_node_names: node.preemptedComfyNodeNames,
    comfy_nodes_matched: row.comfyNodesMatched,
  }
}

export function toApiComfyNode(row: ComfyNode): ApiComfyNode {
  return {
    comfy_node_name: row.comfyNodeName,
    display_name: row.displayName || undefined,
    category: row.category,
    description: row.description,
    input_types: row.inputTypes,
    return_types: row.returnTypes,
    return_names: row.returnNames,
    output_is_list: row.outputIsList,
    function: row.function,
    deprecated: row.deprecated,
    experimental: row.experimental,
  }
}

/** The list envelope every paginated answer uses. */
export function pageInfo(total: number, page: number, limit: number) {
  return { total, page, limit, totalPages: Math.ceil(total / limit) }
}
