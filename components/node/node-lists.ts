// The node page's two long lists, its comfy nodes and its versions: the page arrives with the
// first few of each (all it renders and dehydrates, keeping its HTML small however big the pack)
// and asks the API for the rest when the visitor opens a list (docs/ARCHITECTURE.md, "Page weight").
import { useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useState } from 'react'
import {
  getListComfyNodesQueryKey,
  getListComfyNodesQueryOptions,
  listComfyNodes,
  useListComfyNodes,
} from '@/src/api/generated/comfy-nodes/comfy-nodes'
import type { ComfyNode, NodeVersion } from '@/src/api/generated/model'
import {
  getListNodeVersionsQueryOptions,
  useListNodeVersions,
} from '@/src/api/generated/versions/versions'
import type { LoadRest } from './LoadRest'

/** The comfy nodes of the latest version a page shows (and server-renders) before "Show all". */
export const COMFY_NODES_SHOWN = 8
/** The most comfy nodes one request returns (the contract's `limit` maximum). */
const COMFY_NODES_PER_REQUEST = 100
/** The newest versions a page shows (and server-renders) before "Show all versions". */
export const VERSIONS_SHOWN = 5
export const LATEST = 'latest'

/** The first comfy nodes, as the page is rendered on the server and first in the browser. */
export const firstComfyNodesQuery = (nodeId: string) =>
  getListComfyNodesQueryOptions(nodeId, LATEST, { limit: COMFY_NODES_SHOWN })

/** The newest versions, one more than shown: the extra one tells whether there are more. */
export const firstVersionsQuery = (nodeId: string) =>
  getListNodeVersionsQueryOptions(nodeId, { limit: VERSIONS_SHOWN + 1 })

/** A list the page shows in part until the visitor asks for all of it. */
export interface PartialList<T> {
  items: T[] | undefined
  /** More exist than `items` holds. */
  more: boolean
  /** Asks the API for the rest (again, after a failure). */
  rest: LoadRest
}

/** The controls of a list's rest, loaded by `whole` once `asked` (again after a failure). */
function restOf(
  asked: boolean,
  setAsked: (asked: boolean) => void,
  whole: UseQueryResult<unknown>,
): LoadRest {
  return {
    load: () => {
      setAsked(true)
      if (whole.isError) void whole.refetch()
    },
    loading: asked && whole.isFetching && !whole.data,
    failed: whole.isError && !whole.isFetching,
  }
}

/** A whole list is shown only once asked for: one kept from an earlier visit may be older. */
const shownWhole = <T>(asked: boolean, whole: UseQueryResult<T>) => (asked ? whole.data : undefined)

export function useComfyNodeList(
  nodeId: string,
  enabled: boolean,
): PartialList<ComfyNode> & { total: number } {
  const [all, setAll] = useState(false)
  const first = useListComfyNodes(
    nodeId,
    LATEST,
    { limit: COMFY_NODES_SHOWN },
    { query: { enabled } },
  )
  const total = first.data?.total ?? 0
  // Every class, in pages of the most the API gives at once, as one query (one state to show).
  const whole = useQuery({
    queryKey: [...getListComfyNodesQueryKey(nodeId, LATEST), 'all'],
    queryFn: async ({ signal }) => {
      const pages = Array.from({ length: Math.ceil(total / COMFY_NODES_PER_REQUEST) }, (_, index) =>
        listComfyNodes(
          nodeId,
          LATEST,
          { limit: COMFY_NODES_PER_REQUEST, page: index + 1 },
          undefined,
          signal,
        ),
      )
      return (await Promise.all(pages)).flatMap((page) => page.comfy_nodes)
    },
    enabled: all && total > 0,
  })
  const items = shownWhole(all, whole) ?? first.data?.comfy_nodes
  return {
    items,
    total,
    more: (items?.length ?? 0) < total,
    rest: restOf(all, setAll, whole),
  }
}

export function useVersionList(nodeId: string): PartialList<NodeVersion> {
  const [all, setAll] = useState(false)
  const first = useListNodeVersions(nodeId, { limit: VERSIONS_SHOWN + 1 })
  const whole = useListNodeVersions(nodeId, undefined, { query: { enabled: all } })
  const wholeShown = shownWhole(all, whole)
  const items = wholeShown ?? first.data?.slice(0, VERSIONS_SHOWN)
  return {
    items,
    more: !wholeShown && (first.data?.length ?? 0) > VERSIONS_SHOWN,
    rest: restOf(all, setAll, whole),
  }
}
