// The node page's two long lists, its comfy nodes and its versions: the page arrives with the
// first few of each (all it renders and dehydrates, keeping its HTML small however big the pack)
// and asks the API for the rest when the visitor opens a list (docs/ARCHITECTURE.md, "Page weight").
import { useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
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
/**
 * The days of downloads the page asks for once (DownloadsChart shows 30 or 90 of them). Here, not
 * in the chart's own chunk, which the page loads apart (NodeView).
 */
export const DOWNLOAD_HISTORY_DAYS = 90

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

/**
 * The controls of a list's rest, loaded by `whole` once `asked` (again after a failure). The same
 * object while nothing changes: the lists keep their server HTML until their chunk has arrived
 * only if their props keep their identity (components/common/deferred.tsx).
 */
function useRest(
  asked: boolean,
  setAsked: (asked: boolean) => void,
  whole: UseQueryResult<unknown>,
): LoadRest {
  const { isError, isFetching, refetch } = whole
  const hasData = whole.data !== undefined
  return useMemo(
    () => ({
      load: () => {
        setAsked(true)
        if (isError) void refetch()
      },
      loading: asked && isFetching && !hasData,
      failed: isError && !isFetching,
    }),
    [asked, setAsked, isError, isFetching, refetch, hasData],
  )
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
    rest: useRest(all, setAll, whole),
  }
}

export function useVersionList(nodeId: string): PartialList<NodeVersion> {
  const [all, setAll] = useState(false)
  const first = useListNodeVersions(nodeId, { limit: VERSIONS_SHOWN + 1 })
  const whole = useListNodeVersions(nodeId, undefined, { query: { enabled: all } })
  const wholeShown = shownWhole(all, whole)
  const firstShown = useMemo(() => first.data?.slice(0, VERSIONS_SHOWN), [first.data])
  const items = wholeShown ?? firstShown
  return {
    items,
    more: !wholeShown && (first.data?.length ?? 0) > VERSIONS_SHOWN,
    rest: useRest(all, setAll, whole),
  }
}
