// Small pure helpers of the review view: file paths, lines, retries and the URL's
// `?file=…&line=…` selection. Free of React so they are easy to test and reuse.
import { shouldRetryQuery } from '@/src/api/query-client'
import { errorStatus } from '@/src/lib/api-error'

/**
 * The archive path a finding means. Findings name entries as the archive does, but some checks
 * name a file without the archive's top-level folder (e.g. `pyproject.toml`); then the one file
 * whose path ends with it is meant. Unknown paths are kept (the file view says it is missing).
 */
export function resolveArchivePath(path: string, files: readonly { path: string }[] = []): string {
  if (files.some((file) => file.path === path)) return path
  const matches = files.filter((file) => file.path.endsWith(`/${path}`))
  return matches.length === 1 ? matches[0].path : path
}

/** A file's text as lines (any line ending); a final line break does not add an empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/)
  if (lines.length > 1 && lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * Retries of the archive queries: a 4xx answer (no archive, failed checks, not text) is the
 * answer and is never asked again; network failures and 5xx follow the app's rule.
 */
export function retryArchiveQuery(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error)
  if (status !== undefined && status < 500) return false
  return shouldRetryQuery(failureCount, error)
}

export interface FileSelection {
  file: string
  /** 1-based line to highlight; 0 for none. */
  line: number
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

/** The file and line named in the URL's query, if a file is named. */
export function selectionFromQuery(
  query: Record<string, string | string[] | undefined>,
): FileSelection | undefined {
  const file = first(query.file)
  if (!file) return undefined
  const line = Number.parseInt(first(query.line), 10)
  return { file, line: Number.isInteger(line) && line > 0 ? line : 0 }
}

/** Whether a key press happened while the person types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
}

/** A folder of the archive's file tree, with how many files and bytes it holds in all. */
export interface FileTreeFolder {
  kind: 'folder'
  name: string
  /** Its path with a final slash ("pack-main/src/"); '' for the archive's root. */
  path: string
  children: FileTreeEntry[]
  files: number
  size: number
}

export interface FileTreeFile {
  kind: 'file'
  name: string
  path: string
  size: number
}

export type FileTreeEntry = FileTreeFolder | FileTreeFile

/** The archive's files as a tree of folders: folders first, then files, each by name. */
export function buildFileTree(files: readonly { path: string; size: number }[]): FileTreeFolder {
  const root: FileTreeFolder = {
    kind: 'folder',
    name: '',
    path: '',
    children: [],
    files: 0,
    size: 0,
  }
  const folders = new Map<string, FileTreeFolder>([['', root]])
  for (const file of files) {
    const parts = file.path.split('/').filter((part) => part !== '')
    let parent = root
    parent.files += 1
    parent.size += file.size
    for (const [index, name] of parts.slice(0, -1).entries()) {
      const path = `${parts.slice(0, index + 1).join('/')}/`
      let folder = folders.get(path)
      if (!folder) {
        folder = { kind: 'folder', name, path, children: [], files: 0, size: 0 }
        folders.set(path, folder)
        parent.children.push(folder)
      }
      folder.files += 1
      folder.size += file.size
      parent = folder
    }
    parent.children.push({
      kind: 'file',
      name: parts.at(-1) ?? file.path,
      path: file.path,
      size: file.size,
    })
  }
  const sort = (folder: FileTreeFolder) => {
    folder.children.sort(
      (a, b) =>
        Number(b.kind === 'folder') - Number(a.kind === 'folder') || a.name.localeCompare(b.name),
    )
    for (const child of folder.children) if (child.kind === 'folder') sort(child)
  }
  sort(root)
  return root
}

/** The folders a file is in ("a/b/c.py" → "a/", "a/b/"). */
export function folderPathsOf(path: string): string[] {
  const parts = path.split('/').filter((part) => part !== '')
  return parts.slice(0, -1).map((_, index) => `${parts.slice(0, index + 1).join('/')}/`)
}

/**
 * The folders open at first: only the first level shows, except the folders holding a flagged
 * file (a file with findings), and a lone folder that wraps the whole archive ("pack-main/"),
 * whose contents are the first level that matters.
 */
export function initiallyOpenFolders(tree: FileTreeFolder, flagged: Iterable<string>): Set<string> {
  const open = new Set<string>()
  const [only] = tree.children
  if (tree.children.length === 1 && only.kind === 'folder') open.add(only.path)
  for (const path of flagged) for (const folder of folderPathsOf(path)) open.add(folder)
  return open
}

/** Every folder of the tree. */
export function allFolderPaths(tree: FileTreeFolder): string[] {
  return tree.children.flatMap((child) =>
    child.kind === 'folder' ? [child.path, ...allFolderPaths(child)] : [],
  )
}
