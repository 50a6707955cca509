// The node page's signed-in part (pages/nodes/[nodeId].tsx), a chunk of its own loaded only once
// a visitor is signed in, out of the public page's first-load JavaScript (docs/ARCHITECTURE.md
// "Page weight"): whether they may edit or claim the node, the versions owners see, and the
// controls, which are themselves loaded only when shown. It renders nothing: it hands the page
// what NodeView shows for them.
import dynamic from 'next/dynamic'
import { useEffect, useMemo, type ReactNode } from 'react'
import type { Node, NodeVersion } from '@/src/api/generated/model'
import { useAuth } from '@/src/lib/auth'
import { useTranslationSections } from '@/src/lib/translation-sections'
import { claimedPublisher, isUnclaimed } from '@/src/lib/unclaimed'
import { useCanEditNode, useOwnerVersions } from './node-permissions'

const NodeOwnerActions = dynamic(
  () => import('./NodeManagement').then((module) => module.NodeOwnerActions),
  { ssr: false },
)
const VersionActions = dynamic(
  () => import('./NodeManagement').then((module) => module.VersionActions),
  { ssr: false },
)
const VersionStateBadge = dynamic(
  () => import('./VersionPipeline').then((module) => module.VersionStateBadge),
  { ssr: false },
)
const VersionStatusDetails = dynamic(
  () => import('./VersionPipeline').then((module) => module.VersionStatusDetails),
  { ssr: false },
)
const ClaimNode = dynamic(() => import('./ClaimNode').then((module) => module.ClaimNode), {
  ssr: false,
})

const MANAGE_TEXTS = ['manage']

/** What NodeView shows a signed-in visitor beyond the public page (its props of the same names). */
export interface NodeOwnerView {
  /** The versions owners see (with pending, flagged and banned ones), instead of the public list. */
  versions?: NodeVersion[]
  management?: ReactNode
  versionActions?: (version: NodeVersion) => ReactNode
  versionStatus?: (version: NodeVersion) => ReactNode
  versionDetails?: (version: NodeVersion) => ReactNode
}

export interface NodeOwnerStateProps {
  /** The node's id as the page's address has it (its queries' keys). */
  nodeId: string
  node: Node
  /** Called with what to show, again whenever it changes, and with undefined when unmounted. */
  onChange: (view: NodeOwnerView | undefined) => void
}

export default function NodeOwnerState({ nodeId, node, onChange }: NodeOwnerStateProps) {
  const { user } = useAuth()
  const canEdit = useCanEditNode(node)
  const ownerVersions = useOwnerVersions(nodeId, canEdit)
  const claimable = Boolean(isUnclaimed(node) && user)
  // Owner and claim controls use texts that public pages load only when needed.
  const manageTexts = useTranslationSections(canEdit || claimable ? MANAGE_TEXTS : [])
  const publisher = claimedPublisher(node)
  const claimed = useMemo(() => (publisher ? { ...node, publisher } : undefined), [node, publisher])
  const owner = Boolean(claimed && canEdit && manageTexts)

  const view = useMemo((): NodeOwnerView => {
    const management = !manageTexts ? undefined : claimed && canEdit ? (
      <NodeOwnerActions node={claimed} versions={ownerVersions} />
    ) : claimable ? (
      <ClaimNode node={node} />
    ) : undefined
    return {
      versions: ownerVersions,
      management,
      versionActions:
        owner && claimed
          ? (version) => <VersionActions node={claimed} version={version} />
          : undefined,
      versionStatus: owner ? (version) => <VersionStateBadge version={version} /> : undefined,
      versionDetails: owner ? (version) => <VersionStatusDetails version={version} /> : undefined,
    }
  }, [manageTexts, claimed, canEdit, ownerVersions, claimable, node, owner])

  useEffect(() => onChange(view), [onChange, view])
  useEffect(() => () => onChange(undefined), [onChange])
  return null
}
