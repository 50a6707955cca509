// Addresses of the CI pages and the filters they keep: `/ci?repo=&branch=&page=` (defaults left
// out) and a commit's `/ci/<hash>`, which carries the list's filters so its way back keeps them.
// Free of UI code: the pages, their server props and the tests share it.
import type {
  GetGitcommitParams,
  GetGitcommitsummaryParams,
  ListReleasesLocale,
} from '@/src/api/generated/model'
import { pageFromQuery } from '@/src/lib/page-number'
import { paramOf } from '@/src/lib/route-params'

/** The repository shown when the address names none (the API's own default). */
export const DEFAULT_CI_REPO = 'comfyanonymous/ComfyUI'
/** Commits per page of the list. */
export const CI_PAGE_SIZE = 20
/** A commit's results asked for at once (the API's largest page). */
export const CI_RESULTS_PAGE_SIZE = 100
/** Releases shown under "What's new". */
export const CI_RELEASES_SHOWN = 6
/** Longest repository name kept from an address (GitHub's owner and name are far shorter). */
const REPO_MAX_LENGTH = 200

export interface CiFilters {
  repo: string
  /** '' for every branch. */
  branch: string
  page: number
}

type Query = Record<string, string | string[] | undefined>

/** The filters an address asks for (blank or overlong values are the defaults). */
export function ciFiltersOf(query: Query): CiFilters {
  const repo = paramOf(query.repo).trim()
  return {
    repo: repo && repo.length <= REPO_MAX_LENGTH ? repo : DEFAULT_CI_REPO,
    branch: paramOf(query.branch).trim().slice(0, REPO_MAX_LENGTH),
    page: pageFromQuery(query.page),
  }
}

/** The query string of the filters, defaults left out ('' or `?repo=…`). */
function searchOf({ repo, branch, page }: CiFilters): string {
  const params = new URLSearchParams()
  if (repo !== DEFAULT_CI_REPO) params.set('repo', repo)
  if (branch) params.set('branch', branch)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `?${search}` : ''
}

export function ciListHref(filters: CiFilters): string {
  return `/ci${searchOf(filters)}`
}

export function ciCommitHref(commitHash: string, filters: CiFilters): string {
  return `/ci/${encodeURIComponent(commitHash)}${searchOf(filters)}`
}

/** Whether the list shows something other than its default view (pages aside). */
export function isFiltered(filters: CiFilters): boolean {
  return filters.repo !== DEFAULT_CI_REPO || filters.branch !== ''
}

const COMMIT_HASH = /^[0-9a-f]{7,40}$/i
const COMMIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether an address's commit could name one: a hash (7 to 40 hex digits) or a commit id. */
export function isCommitRef(value: string): boolean {
  return COMMIT_HASH.test(value) || COMMIT_ID.test(value)
}

/** Git's shortest abbreviation of a hash. */
const SHORT_HASH_LENGTH = 7

/** The first seven characters of a hash, as Git shows it. */
export function shortHash(commitHash: string): string {
  return commitHash.slice(0, SHORT_HASH_LENGTH)
}

/**
 * How many characters tell a list's hashes apart, seven at least (as Git lengthens its
 * abbreviations when they would be ambiguous).
 */
export function abbreviationLength(hashes: readonly string[]): number {
  const distinct = [...new Set(hashes.map((hash) => hash.toLowerCase()))]
  const longest = Math.max(SHORT_HASH_LENGTH, ...distinct.map((hash) => hash.length))
  for (let length = SHORT_HASH_LENGTH; length < longest; length++) {
    if (new Set(distinct.map((hash) => hash.slice(0, length))).size === distinct.length) {
      return length
    }
  }
  return longest
}

/** The parameters of the list's summaries: the same on the server and in the browser. */
export function summaryParams({ repo, branch, page }: CiFilters): GetGitcommitsummaryParams {
  return branch
    ? { repoName: repo, branchName: branch, page, pageSize: CI_PAGE_SIZE }
    : { repoName: repo, page, pageSize: CI_PAGE_SIZE }
}

/** The parameters of a commit's results. */
export function commitParams(commit: string, repo: string): GetGitcommitParams {
  return { commitId: commit, repoName: repo, page: 1, pageSize: CI_RESULTS_PAGE_SIZE }
}

const RELEASE_LOCALES: readonly ListReleasesLocale[] = ['en', 'es', 'fr', 'ja', 'ko', 'ru', 'zh']

/** The visitor's language as the releases API names it, if it is one. */
export function releasesLocale(locale: string | undefined): ListReleasesLocale | undefined {
  return RELEASE_LOCALES.find((candidate) => candidate === locale)
}
