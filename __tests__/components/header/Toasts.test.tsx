import { act, render, screen } from '@testing-library/react'
import fs from 'node:fs'
import path from 'node:path'
import { TOAST_CONTAINER_PROPS, TOAST_TRANSITION } from '@/components/common/Toasts'
import { ToastHost } from '@/components/common/ToastHost'
import { notifyError } from '@/src/lib/notify'

describe('notifications (seed section 9)', () => {
  it('top-right, auto-close 5000 ms, dismissed by a drag past 80 %', () => {
    expect(TOAST_CONTAINER_PROPS.position).toBe('top-right')
    expect(TOAST_CONTAINER_PROPS.autoClose).toBe(5000)
    expect(TOAST_CONTAINER_PROPS.draggablePercent).toBe(80)
  })

  it('removal animation 300 ms: a 0.3 s slide-out, then a 300 ms collapse', () => {
    expect(TOAST_TRANSITION.collapse).toBe(true)
    expect(TOAST_TRANSITION.collapseDuration).toBe(300)
    expect(TOAST_TRANSITION.exit).toContain('Toastify__slide-exit')
    // react-toastify's stylesheet (injected by the library) gives the top-right slide-out 0.3 s.
    const css = fs.readFileSync(
      path.join(process.cwd(), 'node_modules/react-toastify/dist/ReactToastify.css'),
      'utf8',
    )
    const rule = css.match(/\.Toastify__slide-exit--top-right[^{]*\{([^}]*)\}/)?.[1] ?? ''
    expect(rule).toMatch(/animation-duration:\s*0\.3s/)
  })
})

describe('ToastHost (the container _app mounts)', () => {
  it('loads nothing until the first notification, then shows it', async () => {
    const { container } = render(<ToastHost />)
    expect(container.querySelector('.Toastify')).toBeNull()
    await act(() => notifyError('Logout Error:offline'))
    expect(await screen.findByText('Logout Error:offline')).toBeInTheDocument()
  })
})
