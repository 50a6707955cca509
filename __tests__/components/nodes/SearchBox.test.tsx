import { act, fireEvent, screen, within } from '@testing-library/react'
import { AxiosError, AxiosHeaders } from 'axios'
import { NodeBrowser } from '@/components/nodes/NodeBrowser'
import { SearchBox } from '@/components/nodes/SearchBox'
import { nextIndex, SUGGEST_DEBOUNCE_MS } from '@/components/nodes/SearchSuggestions'
import type { NodeListResponse, Suggestion } from '@/src/api/generated/model'
import { customInstance } from '@/src/api/mutator'
import { NODES_PAGE_SIZE, SEARCH_DEBOUNCE_MS, SUGGESTIONS_MAX } from '@/src/lib/constants'
import { renderWithProviders } from '../../test-utils'

jest.mock('@/src/api/mutator', () => ({ customInstance: jest.fn() }))
const request = jest.mocked(customInstance)
const requests = () => request.mock.calls.map(([config]) => config)

const SUGGESTIONS: Suggestion[] = [
  {
    kind: 'node',
    text: 'Upscaler Pack',
    target: 'comfyui-upscaler-pack',
    detail: 'comfyui-upscaler-pack',
  },
  {
    kind: 'comfy_node',
    text: 'UpscaleTileSampler',
    target: 'comfyui-tile-kit',
    detail: 'Tile Kit',
  },
  { kind: 'publisher', text: 'Upscale Labs', target: 'upscale-labs', detail: 'upscale-labs' },
  { kind: 'tag', text: 'upscaling', target: 'upscaling' },
]

const EMPTY_PAGE: NodeListResponse = {
  nodes: [],
  total: 0,
  page: 1,
  limit: NODES_PAGE_SIZE,
  totalPages: 0,
}

const combobox = () => screen.getByRole('combobox', { name: 'Search nodes' })
const options = () => screen.queryAllByRole('option')

function renderBox(props: { value?: string; onPickTag?: (tag: string) => void } = {}) {
  const onSearch = jest.fn()
  const view = renderWithProviders(
    <SearchBox value={props.value ?? ''} onSearch={onSearch} onPickTag={props.onPickTag} />,
  )
  return { ...view, onSearch }
}

/** Lets answered requests reach the screen (React Query notifies on a zero timeout). */
const settle = () => act(() => jest.advanceTimersByTimeAsync(0))

/** Types the text and lets the suggestion request (and only it) go out and answer. */
async function type(text: string) {
  fireEvent.change(combobox(), { target: { value: text } })
  await act(() => jest.advanceTimersByTimeAsync(SUGGEST_DEBOUNCE_MS))
  await settle()
}

/** Presses a key in the field; false when the component prevented the browser's default. */
const press = (key: string) => fireEvent.keyDown(combobox(), { key })

const activeOption = () => {
  const id = combobox().getAttribute('aria-activedescendant')
  return id ? document.getElementById(id) : null
}

beforeEach(() => {
  jest.useFakeTimers()
  request.mockReset()
  request.mockResolvedValue({ suggestions: SUGGESTIONS })
})

afterEach(() => {
  jest.useRealTimers()
})

describe('SearchBox suggestions', () => {
  it('is a collapsed combobox until something is typed', () => {
    renderBox({ value: 'upscale' })
    const box = combobox()
    expect(box).toHaveAttribute('aria-expanded', 'false')
    expect(box).toHaveAttribute('aria-autocomplete', 'list')
    expect(box).not.toHaveAttribute('aria-activedescendant')
    // The popup the combobox controls exists (hidden) even while collapsed.
    expect(document.getElementById(box.getAttribute('aria-controls') ?? '')).not.toBeNull()
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    expect(request).not.toHaveBeenCalled()
  })

  it('asks for suggestions as you type, before the debounced search, and lists them', async () => {
    const { onSearch } = renderBox()
    await type('ups')
    expect(requests()).toEqual([
      expect.objectContaining({
        url: '/nodes/suggest',
        params: { q: 'ups', limit: SUGGESTIONS_MAX },
      }),
    ])
    expect(onSearch).not.toHaveBeenCalled()

    const box = combobox()
    const listbox = screen.getByRole('listbox', { name: 'Search suggestions' })
    expect(box).toHaveAttribute('aria-expanded', 'true')
    expect(box).toHaveAttribute('aria-controls', listbox.id)
    const shown = within(listbox).getAllByRole('option')
    expect(shown.map((option) => option.textContent)).toEqual([
      'Upscaler Pack Node comfyui-upscaler-pack',
      'UpscaleTileSampler ComfyUI node Tile Kit',
      'Upscale Labs Publisher upscale-labs',
      'upscaling Tag',
    ])
    expect(within(shown[1]).getByText('ComfyUI node')).toBeInTheDocument()
    expect(within(shown[1]).getByText('Tile Kit')).toBeInTheDocument()
    expect(shown.every((option) => option.getAttribute('aria-selected') === 'false')).toBe(true)

    // The results still follow the text, SEARCH_DEBOUNCE_MS after typing stopped.
    act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - SUGGEST_DEBOUNCE_MS))
    expect(onSearch).toHaveBeenCalledTimes(1)
    expect(onSearch).toHaveBeenCalledWith('ups')
  })

  it('asks once the typing pauses, and keeps the list while the next one loads', async () => {
    renderBox()
    fireEvent.change(combobox(), { target: { value: 'u' } })
    act(() => jest.advanceTimersByTime(SUGGEST_DEBOUNCE_MS / 2))
    fireEvent.change(combobox(), { target: { value: 'up' } })
    await act(() => jest.advanceTimersByTimeAsync(SUGGEST_DEBOUNCE_MS))
    await settle()
    expect(requests().map((config) => config.params)).toEqual([{ q: 'up', limit: 8 }])
    expect(options()).toHaveLength(4)

    let answer: (value: { suggestions: Suggestion[] }) => void = () => {}
    request.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    await type('ups')
    expect(requests()).toHaveLength(2)
    expect(options()).toHaveLength(4)
    await act(async () => answer({ suggestions: SUGGESTIONS.slice(0, 1) }))
    await settle()
    expect(options()).toHaveLength(1)
  })

  it('moves the active option with the arrow keys, wrapping at both ends', async () => {
    renderBox()
    await type('ups')
    const shown = options()
    const expectActive = (index: number) => {
      expect(activeOption()).toBe(shown[index])
      shown.forEach((option, i) =>
        expect(option).toHaveAttribute('aria-selected', String(i === index)),
      )
    }
    expect(press('ArrowDown')).toBe(false)
    expectActive(0)
    press('ArrowDown')
    expectActive(1)
    press('ArrowDown')
    press('ArrowDown')
    expectActive(3)
    press('ArrowDown')
    expectActive(0)
    expect(press('ArrowUp')).toBe(false)
    expectActive(3)
    press('ArrowUp')
    expectActive(2)
    // Home and End move the caret as in any text field; no option stays active.
    expect(press('Home')).toBe(true)
    expect(activeOption()).toBeNull()
    expect(combobox()).toHaveAttribute('aria-expanded', 'true')
  })

  it('opens the node page on Enter, and does not search the typed text', async () => {
    const { router, onSearch } = renderBox()
    await type('ups')
    press('ArrowDown')
    expect(press('Enter')).toBe(false)
    expect(router.push).toHaveBeenCalledWith('/nodes/comfyui-upscaler-pack')
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2))
    expect(onSearch).not.toHaveBeenCalled()
    expect(router.push).toHaveBeenCalledTimes(1)
  })

  it('opens the page of the node that has a ComfyUI node', async () => {
    const { router } = renderBox()
    await type('upscaletile')
    press('ArrowDown')
    press('ArrowDown')
    press('Enter')
    expect(router.push).toHaveBeenCalledWith('/nodes/comfyui-tile-kit')
  })

  it('opens the publisher page on a click, keeping the focus in the field', async () => {
    const { router } = renderBox()
    combobox().focus()
    await type('ups')
    const publisher = screen.getByRole('option', { name: /Upscale Labs/ })
    // Pressing an option does not take the focus (the field would blur and close the list).
    expect(fireEvent.mouseDown(publisher)).toBe(false)
    fireEvent.click(publisher)
    expect(router.push).toHaveBeenCalledWith('/publishers/upscale-labs')
    expect(combobox()).toHaveFocus()
  })

  it('hands a picked tag to onPickTag and empties the field', async () => {
    const onPickTag = jest.fn()
    const { onSearch, router } = renderBox({ onPickTag })
    await type('ups')
    press('ArrowUp')
    expect(activeOption()).toHaveTextContent('upscaling')
    press('Enter')
    expect(onPickTag).toHaveBeenCalledWith('upscaling')
    expect(combobox()).toHaveValue('')
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2))
    expect(onSearch).not.toHaveBeenCalled()
    expect(router.push).not.toHaveBeenCalled()
  })

  it('searches a picked tag as text when there is no onPickTag', async () => {
    const { onSearch } = renderBox()
    await type('ups')
    fireEvent.click(screen.getByRole('option', { name: /^upscaling/ }))
    expect(onSearch).toHaveBeenCalledWith('upscaling')
    expect(combobox()).toHaveValue('upscaling')
  })

  it('closes the list on Escape and on blur; typing or ArrowDown opens it again', async () => {
    renderBox()
    await type('ups')
    press('ArrowDown')
    expect(press('Escape')).toBe(false)
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    expect(combobox()).not.toHaveAttribute('aria-activedescendant')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    expect(combobox()).toHaveValue('ups')

    press('ArrowDown')
    await act(() => jest.advanceTimersByTimeAsync(SUGGEST_DEBOUNCE_MS))
    expect(combobox()).toHaveAttribute('aria-expanded', 'true')

    fireEvent.blur(combobox())
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    await type('upsc')
    expect(combobox()).toHaveAttribute('aria-expanded', 'true')
  })

  it('submits the search on Enter when no option is active', async () => {
    const { onSearch, router } = renderBox()
    await type('ups')
    expect(combobox()).toHaveAttribute('aria-expanded', 'true')
    // Not prevented: the browser submits the form.
    expect(press('Enter')).toBe(true)
    fireEvent.submit(combobox())
    expect(onSearch).toHaveBeenCalledTimes(1)
    expect(onSearch).toHaveBeenCalledWith('ups')
    expect(router.push).not.toHaveBeenCalled()
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
  })

  it('announces how many suggestions there are', async () => {
    renderBox()
    const status = screen.getByRole('status')
    expect(status).toHaveAttribute('aria-live', 'polite')
    expect(status).toHaveTextContent(/^$/)
    await type('ups')
    expect(status).toHaveTextContent('4 suggestions available')

    request.mockResolvedValueOnce({ suggestions: SUGGESTIONS.slice(2, 3) })
    await type('upsc')
    await settle()
    expect(status).toHaveTextContent('1 suggestion available')

    request.mockResolvedValueOnce({ suggestions: [] })
    await type('upscx')
    await settle()
    expect(status).toHaveTextContent('No suggestions')
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')

    press('Escape')
    expect(status).toHaveTextContent(/^$/)
  })

  it.each([
    ['fails', new Error('Network Error')],
    [
      'refuses with 429',
      new AxiosError('Too Many Requests', AxiosError.ERR_BAD_REQUEST, undefined, null, {
        data: { error: 'TooManyRequests' },
        status: 429,
        statusText: 'Too Many Requests',
        headers: new AxiosHeaders(),
        config: { headers: new AxiosHeaders() },
      }),
    ],
  ])('shows no list when the API %s, and the search still works', async (_, error) => {
    request.mockRejectedValue(error)
    const { onSearch } = renderBox()
    await type('ups')
    await settle()
    expect(request).toHaveBeenCalledTimes(1)
    expect(options()).toHaveLength(0)
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByRole('status')).toHaveTextContent(/^$/)
    press('ArrowDown')
    expect(combobox()).not.toHaveAttribute('aria-activedescendant')
    act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS))
    expect(onSearch).toHaveBeenCalledWith('ups')
  })

  it('hides a shown list when the next request fails', async () => {
    renderBox()
    await type('ups')
    expect(options()).toHaveLength(4)
    request.mockRejectedValueOnce(new Error('Network Error'))
    await type('upsc')
    await settle()
    expect(options()).toHaveLength(0)
    expect(combobox()).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByRole('status')).toHaveTextContent(/^$/)
  })

  it('on the home page, a picked tag becomes the tag filter of the address', async () => {
    request.mockResolvedValueOnce(EMPTY_PAGE)
    const { router } = renderWithProviders(<NodeBrowser />, {
      router: { query: { tags: 'video', sort: 'stars', page: '2' } },
    })
    await type('ups')
    fireEvent.click(screen.getByRole('option', { name: /^upscaling/ }))
    expect(router.push).toHaveBeenCalledWith('/?sort=stars&tags=upscaling', undefined, {
      shallow: true,
      scroll: false,
    })
    expect(combobox()).toHaveValue('')
  })
})

describe('nextIndex', () => {
  it('moves down and up, wrapping at both ends', () => {
    expect(nextIndex(-1, 4, 'ArrowDown')).toBe(0)
    expect(nextIndex(0, 4, 'ArrowDown')).toBe(1)
    expect(nextIndex(3, 4, 'ArrowDown')).toBe(0)
    expect(nextIndex(-1, 4, 'ArrowUp')).toBe(3)
    expect(nextIndex(0, 4, 'ArrowUp')).toBe(3)
    expect(nextIndex(2, 4, 'ArrowUp')).toBe(1)
  })

  it('stays on the single option, and has none to move to in an empty list', () => {
    expect(nextIndex(0, 1, 'ArrowDown')).toBe(0)
    expect(nextIndex(0, 1, 'ArrowUp')).toBe(0)
    expect(nextIndex(-1, 0, 'ArrowDown')).toBe(-1)
    expect(nextIndex(-1, 0, 'ArrowUp')).toBe(-1)
  })

  it('starts over when the list shrank below the current option', () => {
    expect(nextIndex(7, 3, 'ArrowDown')).toBe(0)
    expect(nextIndex(7, 3, 'ArrowUp')).toBe(2)
  })
})
