// The website's security headers (security-headers.config.js): the CSP allows the two inline
// scripts by the hashes of their exact text and nothing else inline, follows the public settings, and
// the public settings reach the page as data, not as a script.
import { createHash } from 'node:crypto'
import '@/src/lib/zod-jitless'
import { config as zodConfig } from 'zod'
import { getThemeModeScript } from 'flowbite-react/theme'
import {
  contentSecurityPolicy,
  SCRIPT_LOADER,
  securityHeaders,
  THEME_SCRIPT,
  THEME_STORAGE_KEY,
} from '@/security-headers.config'
import { THEME_STORAGE_KEY as CONSTANTS_THEME_KEY } from '@/src/lib/constants'
import {
  PUBLIC_ENV_ELEMENT_ID,
  publicEnv,
  publicEnvJson,
  readPublicEnv,
} from '@/src/lib/public-env'

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

const EMULATOR_ENV = {
  NEXT_PUBLIC_API_URL: 'http://localhost:8180/',
  NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9399',
} as unknown as NodeJS.ProcessEnv

const PRODUCTION_ENV = {
  NEXT_PUBLIC_API_URL: 'https://api.registry.example/v1',
  NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: 'registry.example',
  NEXT_PUBLIC_MIXPANEL_TOKEN: 'mp',
} as unknown as NodeJS.ProcessEnv

describe('security headers of the website', () => {
  it('allows the theme script and the script loader by the hashes of their exact text, and no other inline script', () => {
    const scripts = directives(contentSecurityPolicy({ env: EMULATOR_ENV })).get('script-src')
    for (const inline of [THEME_SCRIPT, SCRIPT_LOADER]) {
      const hash = createHash('sha256').update(inline).digest('base64')
      expect(scripts).toContain(`'sha256-${hash}'`)
    }
    expect(scripts).not.toContain("'unsafe-inline'")
    expect(scripts).not.toContain("'unsafe-eval'")
    expect(scripts?.filter((source) => source.startsWith("'sha256-"))).toHaveLength(2)
  })

  it('renders the theme script flowbite would, with the key the site stores the choice under', () => {
    expect(THEME_STORAGE_KEY).toBe(CONSTANTS_THEME_KEY)
    expect(THEME_SCRIPT).toBe(getThemeModeScript({ localStorageKey: CONSTANTS_THEME_KEY }))
  })

  it('lets the page reach the API and the Auth emulator it is configured with', () => {
    const policy = directives(contentSecurityPolicy({ env: EMULATOR_ENV }))
    const settings = readPublicEnv(EMULATOR_ENV)
    const apiOrigin = new URL(settings.apiUrl).origin
    const emulator = `http://${settings.firebase.emulatorHost}`
    expect(policy.get('connect-src')).toEqual(["'self'", apiOrigin, emulator])
    expect(policy.get('frame-src')).toEqual([`https://${settings.firebase.authDomain}`, emulator])
    expect(policy.get('connect-src')).not.toContain('https://identitytoolkit.googleapis.com')
  })

  it('lets the page reach real Firebase Auth and Mixpanel in production', () => {
    const policy = directives(contentSecurityPolicy({ env: PRODUCTION_ENV }))
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://api.registry.example',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://api-js.mixpanel.com',
    ])
    expect(policy.get('frame-src')).toEqual(['https://registry.example'])
    expect(policy.get('script-src')).toContain('https://apis.google.com')
  })

  it('never lets the site be framed, and allows eval only to next dev', () => {
    const policy = directives(contentSecurityPolicy({ env: EMULATOR_ENV }))
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'data:']))
    const dev = directives(contentSecurityPolicy({ env: EMULATOR_ENV, dev: true }))
    expect(dev.get('script-src')).toContain("'unsafe-eval'")
    expect(dev.get('script-src')).not.toContain("'unsafe-inline'")
  })

  it('sends nosniff, a referrer policy, no framing and denied browser features', () => {
    const headers = Object.fromEntries(
      securityHeaders({ env: EMULATOR_ENV }).map(({ key, value }) => [key, value]),
    )
    expect(headers['X-Content-Type-Options']).toBe('nosniff')
    expect(headers['X-Frame-Options']).toBe('DENY')
    expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin')
    for (const feature of ['camera', 'microphone', 'geolocation']) {
      expect(headers['Permissions-Policy']).toContain(`${feature}=()`)
    }
  })
})

it('keeps zod from probing for eval, which the CSP would report', () => {
  expect(zodConfig().jitless).toBe(true)
})

describe('public settings on the page', () => {
  afterEach(() => {
    document.getElementById(PUBLIC_ENV_ELEMENT_ID)?.remove()
    delete window.__PUBLIC_ENV__
  })

  it('are read from the JSON element, which no text can break out of', () => {
    const settings = { ...readPublicEnv(EMULATOR_ENV), siteUrl: 'http://x/</script><b>' }
    // As the HTML parser sees it: the element ends at the first `</script`.
    document.head.insertAdjacentHTML(
      'beforeend',
      `<script id="${PUBLIC_ENV_ELEMENT_ID}" type="application/json">${publicEnvJson(settings)}</script>`,
    )
    expect(document.querySelector('b')).toBeNull()
    expect(publicEnv()).toEqual(settings)
  })
})
