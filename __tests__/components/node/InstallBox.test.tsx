import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { COPIED_RESET_MS, InstallBox, installCommand } from '@/components/node/InstallBox'
import { renderWithProviders } from '../../test-utils'

function mockClipboard(writeText: jest.Mock) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
}

describe('InstallBox', () => {
  afterEach(() => jest.useRealTimers())

  it('shows `comfy node install <id>` for the node (design.md section 8)', () => {
    renderWithProviders(<InstallBox nodeId="comfyui-impact-pack" />)
    expect(installCommand('comfyui-impact-pack')).toBe('comfy node install comfyui-impact-pack')
    expect(screen.getByText('comfy node install comfyui-impact-pack')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Install' })).toBeInTheDocument()
  })

  it('copies the command to the clipboard and announces "Copied" in a live region', async () => {
    const writeText = jest.fn(() => Promise.resolve())
    mockClipboard(writeText)
    renderWithProviders(<InstallBox nodeId="my-node" />)
    const status = screen.getByRole('status')
    expect(status).toHaveAttribute('aria-live', 'polite')
    expect(status).toHaveTextContent('')

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(writeText).toHaveBeenCalledWith('comfy node install my-node')
    await waitFor(() => expect(status).toHaveTextContent('Copied'))
  })

  it('clears the confirmation after a while', async () => {
    jest.useFakeTimers()
    mockClipboard(jest.fn(() => Promise.resolve()))
    renderWithProviders(<InstallBox nodeId="my-node" />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    })
    expect(screen.getByRole('status')).toHaveTextContent('Copied')
    act(() => jest.advanceTimersByTime(COPIED_RESET_MS))
    expect(screen.getByRole('status')).toHaveTextContent('')
  })

  it('announces a failure when the clipboard refuses', async () => {
    mockClipboard(jest.fn(() => Promise.reject(new Error('denied'))))
    renderWithProviders(<InstallBox nodeId="my-node" />)
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Copying failed. Select the command and copy it yourself.',
      ),
    )
  })

  it('is translated', async () => {
    mockClipboard(jest.fn(() => Promise.resolve()))
    renderWithProviders(<InstallBox nodeId="my-node" />, { locale: 'ja' })
    fireEvent.click(screen.getByRole('button', { name: 'コピー' }))
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('コピーしました'))
  })

  it('links the latest archive for download only when there is one', () => {
    const { rerender } = renderWithProviders(
      <InstallBox nodeId="my-node" downloadUrl="https://cdn.example.com/my-node-1.0.0.zip" />,
    )
    const link = screen.getByRole('link', { name: 'Download latest (zip)' })
    expect(link).toHaveAttribute('href', 'https://cdn.example.com/my-node-1.0.0.zip')
    rerender(<InstallBox nodeId="my-node" />)
    expect(screen.queryByRole('link', { name: 'Download latest (zip)' })).toBeNull()
  })
})
