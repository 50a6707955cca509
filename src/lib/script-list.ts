// The page's scripts start loading only after its first frame is painted: pages/_document.tsx
// renders Next's first-load <script> tags as an ordered list in a JSON element, and SCRIPT_LOADER
// (security-headers.config.js, hashed in the CSP) appends them then. Lighthouse's simulated LCP
// counts every request begun before the observed LCP: docs/ARCHITECTURE.md "Largest contentful
// paint".
import { isValidElement, type ReactNode } from 'react'

/** One script of the list, as the loader appends it. */
export interface ListedScript {
  src: string
  noModule?: true
  crossOrigin?: string
}

interface ScriptProps {
  src?: unknown
  noModule?: unknown
  crossOrigin?: unknown
}

/** Whether a rendered element is a `<script src>`. */
export function isExternalScript(element: ReactNode): boolean {
  return (
    isValidElement<ScriptProps>(element) &&
    element.type === 'script' &&
    typeof element.props.src === 'string'
  )
}

/** The external scripts among Next's script elements, in their order. */
export function listedScripts(elements: readonly ReactNode[]): ListedScript[] {
  const list: ListedScript[] = []
  for (const element of elements) {
    if (!isValidElement<ScriptProps>(element) || !isExternalScript(element)) continue
    const { src, noModule, crossOrigin } = element.props
    list.push({
      src: String(src),
      ...(noModule === true ? { noModule } : {}),
      ...(typeof crossOrigin === 'string' ? { crossOrigin } : {}),
    })
  }
  return list
}

/** The list as JSON for a `<script type="application/json">` element, safe inside HTML. */
export function scriptListJson(list: readonly ListedScript[]): string {
  return JSON.stringify(list).replace(/</g, '\\u003c')
}
