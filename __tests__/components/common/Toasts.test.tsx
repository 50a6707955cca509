// Notifications (seed section 9), as behaviour: react-toastify's own container, driven with fake
// timers. jsdom runs no CSS animations, so the end of the slide-out is signalled by hand.
import { act, fireEvent, render, screen } from '@testing-library/react'
import { ToastHost } from '@/components/common/ToastHost'
import { notifyError } from '@/src/lib/notify'

describe('notifications', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('load nothing until the first one, then show it top-right', async () => {
    const { container } = render(<ToastHost />)
    expect(container.querySelector('.Toastify')).toBeNull()
    await act(() => notifyError('Logout Error:offline'))
    const toast = await screen.findByText('Logout Error:offline')
    expect(toast.closest('.Toastify__toast-container')).toHaveClass(
      'Toastify__toast-container--top-right',
    )
  })

  // react-toastify times auto-close with its progress bar's CSS animation (it closes the toast
  // on that animation's end), not with a timer: the 5000 ms is that animation's duration.
  it('close when the 5000 ms progress bar runs out, slide out, then collapse in 300 ms', async () => {
    render(<ToastHost />)
    await act(() => notifyError('Saved nothing'))
    const toast = (await screen.findByText('Saved nothing')).closest('.Toastify__toast')
    const bar = toast?.querySelector('.Toastify__progress-bar')
    if (!(toast instanceof HTMLElement) || !(bar instanceof HTMLElement))
      throw new Error('no toast')
    expect(bar.style.animationDuration).toBe('5000ms')
    expect(toast).not.toHaveClass('Toastify__slide-exit--top-right')
    fireEvent.animationEnd(bar)
    expect(toast).toHaveClass('Toastify__slide-exit--top-right')
    fireEvent.animationEnd(toast)
    act(() => jest.advanceTimersByTime(250))
    expect(screen.queryByText('Saved nothing')).toBeInTheDocument()
    act(() => jest.advanceTimersByTime(100))
    expect(screen.queryByText('Saved nothing')).not.toBeInTheDocument()
  })
})
