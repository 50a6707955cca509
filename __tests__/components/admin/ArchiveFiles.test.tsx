import { fireEvent, screen, within } from '@testing-library/react'
import { ArchiveFiles } from '@/components/admin/review/ArchiveFiles'
import { buildFileTree, initiallyOpenFolders } from '@/components/admin/review/review-utils'
import type { AdminVersionFiles } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'

// A look-alike of a big pack: 259 files under one wrapper folder, in nested folders.
const ROOT = 'big-pack-main/'
function bigArchive(): AdminVersionFiles {
  const paths = [`${ROOT}__init__.py`, `${ROOT}README.md`, `${ROOT}pyproject.toml`]
  for (let i = 0; i < 80; i++) paths.push(`${ROOT}nodes/node_${String(i).padStart(2, '0')}.py`)
  for (let i = 0; i < 100; i++) paths.push(`${ROOT}web/js/widget_${i}.js`)
  for (let i = 0; i < 70; i++) paths.push(`${ROOT}vendor/lib/sub/module_${i}.py`)
  paths.push(`${ROOT}scripts/release.py`, `${ROOT}scripts/tools/bump.py`)
  paths.push(`${ROOT}docs/a.md`, `${ROOT}docs/b.md`, `${ROOT}docs/c.md`, `${ROOT}docs/d.md`)
  return {
    node_id: 'big-pack',
    version: '1.0.0',
    archive_size: 900_000,
    files: paths.map((path, index) => ({ path, size: 100 + index, compressed_size: 50 })),
  }
}

const FLAGGED = `${ROOT}vendor/lib/sub/module_7.py`

function renderFiles(flaggedFiles: string[] = [FLAGGED], selectedFile?: string) {
  const onOpen = jest.fn()
  const data = bigArchive()
  const view = renderWithProviders(
    <ArchiveFiles
      data={data}
      isPending={false}
      error={undefined}
      selectedFile={selectedFile}
      onOpen={onOpen}
      flaggedFiles={flaggedFiles}
    />,
  )
  return { ...view, onOpen, data }
}

const folder = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}/$`) })
/** The files shown (a quick look: role queries over hundreds of rows are slow in jsdom). */
const fileButtons = () => document.querySelectorAll(`button[aria-label^="Open ${ROOT}"]`)
const fileButton = (path: string) => screen.queryByRole('button', { name: `Open ${path}` })

describe('ArchiveFiles as a folder tree', () => {
  it('has 259 files in the look-alike archive', () => {
    expect(bigArchive().files).toHaveLength(259)
  })

  it('shows the first level, with deeper folders collapsed', () => {
    renderFiles([])
    expect(screen.getByText(/^259 files;/)).toBeInTheDocument()
    // The lone wrapper folder is open: its contents are the first level.
    expect(folder('big-pack-main')).toHaveAttribute('aria-expanded', 'true')
    expect(fileButton(`${ROOT}__init__.py`)).toBeInTheDocument()
    for (const name of ['nodes', 'web', 'vendor', 'scripts', 'docs']) {
      expect(folder(name)).toHaveAttribute('aria-expanded', 'false')
    }
    expect(fileButton(`${ROOT}nodes/node_00.py`)).not.toBeInTheDocument()
    // Folders first, then files, by name; each folder says how many files it holds.
    const list = within(screen.getByRole('list', { name: 'All files' }))
    expect(folder('nodes').closest('div')).toHaveTextContent(/80 files, \d/)
    const names = list.getAllByRole('button').map((button) => button.textContent)
    expect(names.slice(0, 7)).toEqual([
      '▾big-pack-main/',
      '▸docs/',
      '▸nodes/',
      '▸scripts/',
      '▸vendor/',
      '▸web/',
      '__init__.py',
    ])
    // Far fewer rows than files: the 259-file list is not flat.
    expect(fileButtons()).toHaveLength(3)
  })

  it('opens the folders that hold a file with findings and marks it', () => {
    renderFiles([FLAGGED, FLAGGED])
    for (const name of ['vendor', 'lib', 'sub']) {
      expect(folder(name)).toHaveAttribute('aria-expanded', 'true')
    }
    const row = fileButton(FLAGGED)?.closest('li')
    expect(row).toHaveTextContent('2 findings')
    expect(folder('nodes')).toHaveAttribute('aria-expanded', 'false')
    // The folder row counts the findings inside.
    expect(folder('vendor').closest('div')).toHaveTextContent('2 findings')
  })

  it('opens and closes a folder with its button, and all of them at once', () => {
    const { onOpen } = renderFiles()
    const nodes = folder('nodes')
    fireEvent.click(nodes)
    expect(nodes).toHaveAttribute('aria-expanded', 'true')
    const list = document.getElementById(nodes.getAttribute('aria-controls') ?? '')
    expect(list).not.toBeNull()
    expect(within(list as HTMLElement).getAllByRole('listitem')).toHaveLength(80)
    fireEvent.click(screen.getByRole('button', { name: `Open ${ROOT}nodes/node_05.py` }))
    expect(onOpen).toHaveBeenCalledWith(`${ROOT}nodes/node_05.py`)
    fireEvent.click(nodes)
    expect(nodes).toHaveAttribute('aria-expanded', 'false')
    expect(fileButton(`${ROOT}nodes/node_05.py`)).not.toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Open all folders' }))
    expect(fileButtons()).toHaveLength(259)
    fireEvent.click(screen.getByRole('button', { name: 'Close all folders' }))
    expect(folder('big-pack-main')).toHaveAttribute('aria-expanded', 'false')
    expect(fileButtons()).toHaveLength(0)
  })

  it('opens the folders of a file opened from elsewhere', () => {
    const { rerender } = renderFiles([])
    expect(fileButton(`${ROOT}scripts/tools/bump.py`)).not.toBeInTheDocument()
    rerender(
      <ArchiveFiles
        data={bigArchive()}
        isPending={false}
        error={undefined}
        selectedFile={`${ROOT}scripts/tools/bump.py`}
        onOpen={jest.fn()}
        flaggedFiles={[]}
      />,
    )
    expect(fileButton(`${ROOT}scripts/tools/bump.py`)).toHaveAttribute('aria-current', 'true')
  })

  it('reads in other languages', () => {
    renderWithProviders(
      <ArchiveFiles
        data={bigArchive()}
        isPending={false}
        error={undefined}
        selectedFile={undefined}
        onOpen={jest.fn()}
        flaggedFiles={[FLAGGED]}
      />,
      { locale: 'ru' },
    )
    expect(screen.getByRole('button', { name: 'Открыть все папки' })).toBeInTheDocument()
    expect(screen.getAllByText('1 находка').length).toBeGreaterThan(0)
  })
})

describe('the file tree', () => {
  it('groups paths into folders with their counts and sizes, folders first', () => {
    const tree = buildFileTree([
      { path: 'b.py', size: 1 },
      { path: 'a/x/y.py', size: 2 },
      { path: 'a/z.py', size: 3 },
      { path: 'A.md', size: 4 },
    ])
    expect(tree.files).toBe(4)
    expect(tree.children.map((child) => child.name)).toEqual(['a', 'A.md', 'b.py'])
    const [a] = tree.children
    expect(a).toMatchObject({ kind: 'folder', path: 'a/', files: 2, size: 5 })
    // Several top-level entries: nothing opens but the findings' folders.
    expect([...initiallyOpenFolders(tree, ['a/x/y.py'])].sort()).toEqual(['a/', 'a/x/'])
    expect([...initiallyOpenFolders(tree, [])]).toEqual([])
  })
})
