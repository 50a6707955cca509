// Settings the browser needs, read from the server's environment at request time and handed to
// the page by _document. One build then serves any deployment (ports, API address, Firebase).
export interface PublicEnv {
  /** The registry API as the browser reaches it. */
  apiUrl: string
  /** `production` sends analytics; anything else only logs them. */
  environment: string
  firebase: {
    apiKey: string
    authDomain: string
    projectId: string
    /** host:port of the Auth emulator, when used. */
    emulatorHost: string | undefined
  }
  mixpanelToken: string | undefined
  /** The public origin of this site, for canonical URLs, sitemaps and feeds. */
  siteUrl: string
}

declare global {
  interface Window {
    __PUBLIC_ENV__?: PublicEnv
  }
}

export function readPublicEnv(env: NodeJS.ProcessEnv = process.env): PublicEnv {
  const projectId = env.NEXT_PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-comfy-registry'
  return {
    apiUrl: env.NEXT_PUBLIC_API_URL ?? 'http://localhost:8080',
    environment: env.NEXT_PUBLIC_ENV ?? 'development',
    firebase: {
      apiKey: env.NEXT_PUBLIC_FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: env.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
      projectId,
      emulatorHost: env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST || undefined,
    },
    mixpanelToken: env.NEXT_PUBLIC_MIXPANEL_TOKEN || undefined,
    siteUrl: (env.NEXT_PUBLIC_SITE_URL || 'http://localhost:3000').replace(/\/+$/, ''),
  }
}

/**
 * The id of the page's JSON element with the public settings (pages/_document.tsx). Not
 * `__PUBLIC_ENV__`: an element's id is also a property of window, which would shadow the cache.
 */
export const PUBLIC_ENV_ELEMENT_ID = 'registry-public-env'

/** The public settings wherever this code runs: from the page in a browser, else from env. */
export function publicEnv(): PublicEnv {
  if (typeof window !== 'undefined') {
    if (window.__PUBLIC_ENV__) return window.__PUBLIC_ENV__
    const element = document.getElementById(PUBLIC_ENV_ELEMENT_ID)
    if (element?.textContent) {
      window.__PUBLIC_ENV__ = JSON.parse(element.textContent) as PublicEnv
      return window.__PUBLIC_ENV__
    }
  }
  return readPublicEnv()
}

/** The API base URL for server-side rendering: the internal address when one is set. */
export function serverApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.API_URL ?? readPublicEnv(env).apiUrl
}

/**
 * The settings as JSON for a `<script type="application/json">` element, safe inside HTML. Data,
 * not code, so the Content-Security-Policy needs no inline script for them.
 */
export function publicEnvJson(value: PublicEnv): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}
