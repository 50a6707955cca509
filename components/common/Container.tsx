// The one content width of the site. The header, every page's main content and the footer use
// it, so their left and right edges line up at every width (e2e/layout.spec.ts measures them).
import type { ComponentPropsWithoutRef } from 'react'

/** Width, centring and side padding of the site's content. */
export const CONTAINER_CLASS = 'mx-auto w-full max-w-7xl px-4 sm:px-6 lg:px-8'

/** A block on the site's content width; `className` adds spacing or layout. */
export function Container({ className, ...props }: ComponentPropsWithoutRef<'div'>) {
  return (
    <div {...props} className={className ? `${CONTAINER_CLASS} ${className}` : CONTAINER_CLASS} />
  )
}
