// Notifications (seed section 9): top-right, auto-close after 5000 ms, dragging past 80 % of
// the width dismisses one, removal animation 300 ms (slide out, then collapse).
import { cssTransition, ToastContainer, type ToastContainerProps } from 'react-toastify'
import {
  TOAST_AUTO_CLOSE_MS,
  TOAST_DRAG_PERCENT,
  TOAST_POSITION,
  TOAST_REMOVAL_ANIMATION_MS,
} from '@/src/lib/constants'

/** react-toastify's slide (its exit animation lasts 300 ms), collapsing in 300 ms. */
export const TOAST_TRANSITION = {
  enter: 'Toastify--animate Toastify__slide-enter',
  exit: 'Toastify--animate Toastify__slide-exit',
  appendPosition: true,
  collapse: true,
  collapseDuration: TOAST_REMOVAL_ANIMATION_MS,
}

const toastTransition = cssTransition(TOAST_TRANSITION)

export const TOAST_CONTAINER_PROPS = {
  position: TOAST_POSITION,
  autoClose: TOAST_AUTO_CLOSE_MS,
  draggablePercent: TOAST_DRAG_PERCENT,
  transition: toastTransition,
  newestOnTop: true,
} satisfies ToastContainerProps

export function Toasts() {
  return <ToastContainer {...TOAST_CONTAINER_PROPS} />
}
