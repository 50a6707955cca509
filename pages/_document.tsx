import { isValidElement, type JSX } from 'react'
import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document'
import { PUBLIC_ENV_ELEMENT_ID, publicEnvJson, readPublicEnv } from '@/src/lib/public-env'
import { isExternalScript, listedScripts, scriptListJson } from '@/src/lib/script-list'
import {
  FONT_CLASS,
  SCRIPT_LIST_ELEMENT_ID,
  SCRIPT_LOADER,
  THEME_SCRIPT,
} from '@/security-headers.config'

type DocumentFiles = Parameters<Head['getScripts']>[0]

/**
 * Next's Head without the tags and preloads of the first-load scripts (polyfills, SSR'd dynamic
 * chunks, runtime, framework, main, _app, the page, the build manifests): it renders them as a
 * list, which SCRIPT_LOADER appends once the first frame is painted (src/lib/script-list.ts).
 * Next calls none of these for a page without runtime JS.
 */
class DeferredScriptsHead extends Head {
  getPreloadDynamicChunks() {
    return []
  }

  getPreloadMainLinks() {
    return []
  }

  getPolyfillScripts() {
    return []
  }

  getDynamicChunks() {
    return []
  }

  getScripts(files: DocumentFiles) {
    const elements = [
      ...super.getPolyfillScripts(),
      ...super.getDynamicChunks(files),
      ...super.getScripts(files),
    ]
    const list = listedScripts(elements)
    // Anything else Next renders here (an inline bootstrap, Turbopack builds only) stays.
    const others = elements.filter(
      (element): element is JSX.Element => isValidElement(element) && !isExternalScript(element),
    )
    if (list.length === 0) return others
    return [
      ...others,
      <script
        key="script-list"
        id={SCRIPT_LIST_ELEMENT_ID}
        type="application/json"
        dangerouslySetInnerHTML={{ __html: scriptListJson(list) }}
      />,
      // Its hash is in the CSP (security-headers.config.js).
      <script
        key="script-loader"
        nonce={this.props.nonce}
        dangerouslySetInnerHTML={{ __html: SCRIPT_LOADER }}
      />,
    ]
  }
}

export default function Document({ locale }: DocumentProps) {
  return (
    <Html lang={locale ?? 'en'}>
      <DeferredScriptsHead>
        {/* Data, not a script: the CSP allows no inline script but the hashed ones. */}
        <script
          id={PUBLIC_ENV_ELEMENT_ID}
          type="application/json"
          dangerouslySetInnerHTML={{ __html: publicEnvJson(readPublicEnv()) }}
        />
        {/* Dark mode before first paint; its hash is in the CSP (security-headers.config.js). */}
        <script
          data-flowbite-theme-mode-script
          dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }}
        />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Without scripts nothing puts FONT_CLASS on <html>: Inter at once (it comes before the
            stylesheet, so it outweighs styles/globals.css's rule by one more element). */}
        <noscript>
          <style>{`html:not(.${FONT_CLASS}) body .font-sans{font-family:var(--font-inter),ui-sans-serif,system-ui,sans-serif}`}</style>
        </noscript>
      </DeferredScriptsHead>
      <body className="bg-white text-gray-900 antialiased dark:bg-gray-900 dark:text-gray-100">
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
