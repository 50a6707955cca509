// The website's security headers, built in one place: next.config.js sends them on every
// response (pages, API routes, 404/500, assets) and pages/_document.tsx renders THEME_SCRIPT and
// SCRIPT_LOADER, the two inline scripts, whose hashes the CSP allows. Pages are statically regenerated and cached,
// so per-request nonces cannot work; a hash of the same string cannot drift from the script.
// The values come from the NEXT_PUBLIC_* settings the build runs with (scripts/web-build.ts
// rebuilds when they change), read with the same defaults as src/lib/public-env.ts.
const { createHash } = require('node:crypto')
const { getThemeModeScript } = require('flowbite-react/theme')

/** Where the dark-mode choice is kept (flowbite's key; src/lib/constants.ts THEME_STORAGE_KEY). */
const THEME_STORAGE_KEY = 'flowbite-theme-mode'

/** Dark mode before first paint: the stored choice, else the system's. */
const THEME_SCRIPT = getThemeModeScript({ localStorageKey: THEME_STORAGE_KEY })

/** The id of the JSON element listing the page's scripts, in order (pages/_document.tsx). */
const SCRIPT_LIST_ELEMENT_ID = 'registry-scripts'

/** The class on <html> that lets text be set in Inter (styles/globals.css, src/lib/inter-font.ts). */
const FONT_CLASS = 'with-inter'

/** Inter's family name: next/font names it after its variable in pages/_app.tsx. */
const FONT_FAMILY = 'inter'

/**
 * Set (sessionStorage) once Inter has loaded in this tab: the next page, loaded or reached
 * client-side, is set in Inter from its first frame. Not localStorage: that outlives the cache.
 */
const FONT_STORAGE_KEY = 'registry-font'

/**
 * Appends the listed scripts in order (`async = false`) once the document is parsed and its
 * first contentful paint reported (paint timing; without it, two frames after `load`), so no
 * request of theirs starts before that paint: docs/ARCHITECTURE.md "Largest contentful paint".
 * One script a task: appending one costs the page a few milliseconds of its main thread (its
 * request starts there), all of them in one task made a long task after the paint. A hidden
 * tab paints nothing, so there they load at once, all together. Loaded scripts take its nonce.
 * At the same moment it asks for Inter (FontFaceSet.load: fetched, not applied, so the page is
 * not laid out again) and notes under FONT_STORAGE_KEY once it has loaded; a page loaded later in
 * the tab gets FONT_CLASS on <html> before its first paint, Inter being in the browser's cache.
 */
const SCRIPT_LOADER = `(function(){var c=document.currentScript,d=0,h=document.documentElement,k=${JSON.stringify(FONT_STORAGE_KEY)},n=${JSON.stringify(FONT_CLASS)};function f(){try{document.fonts.load(${JSON.stringify(`1em ${FONT_FAMILY}`)}).then(function(x){if(x.length)sessionStorage.setItem(k,"1")},function(){})}catch(e){}}try{if(sessionStorage.getItem(k))h.classList.add(n)}catch(e){}function l(){if(d)return;d=1;f();var e=document.getElementById(${JSON.stringify(SCRIPT_LIST_ELEMENT_ID)});if(!e)return;var L=JSON.parse(e.textContent),j=0;(function a(){var i=L[j++];if(!i)return;var s=document.createElement("script");s.src=i.src;s.async=false;if(i.noModule)s.noModule=true;if(i.crossOrigin)s.crossOrigin=i.crossOrigin;if(c&&c.nonce)s.nonce=c.nonce;document.head.appendChild(s);if(document.hidden)a();else setTimeout(a,0)})()}function p(){if(document.hidden)return l();document.addEventListener("visibilitychange",function(){if(document.hidden)l()});var P=window.PerformanceObserver,t=P&&P.supportedEntryTypes;if(t&&t.indexOf("paint")>=0)new P(function(x,o){if(x.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(l,0)}}).observe({type:"paint",buffered:true});else addEventListener("load",function(){requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(l,0)})})})}if(document.readyState==="loading")addEventListener("DOMContentLoaded",p,{once:true});else p()})()`

/** Mixpanel's ingestion host (mixpanel-browser's default api_host). */
const MIXPANEL_API_ORIGIN = 'https://api-js.mixpanel.com'

/** Firebase Auth's endpoints when the real service is used (not the emulator). */
const FIREBASE_AUTH_ORIGINS = [
  'https://identitytoolkit.googleapis.com',
  'https://securetoken.googleapis.com',
]

/** Pop-up sign-in (Google, GitHub) loads Google's gapi loader before opening the auth iframe. */
const FIREBASE_POPUP_SCRIPT_ORIGIN = 'https://apis.google.com'

/** `'sha256-…'` of an inline script's exact text, as CSP expects it. */
function scriptHash(source) {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`
}

/** The origin of a URL setting, or undefined when it is not an http(s) URL. */
function originOf(url) {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

/** The outside origins the browser talks to, from the public settings. */
function contentSources(env) {
  const projectId = env.NEXT_PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-comfy-registry'
  const authDomain = env.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`
  const emulatorHost = env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST || undefined
  return {
    api: originOf(env.NEXT_PUBLIC_API_URL ?? 'http://localhost:8080'),
    // The emulator serves the auth REST API and its own auth iframe over plain http.
    auth: emulatorHost ? [`http://${emulatorHost}`] : FIREBASE_AUTH_ORIGINS,
    authFrame: [`https://${authDomain}`, ...(emulatorHost ? [`http://${emulatorHost}`] : [])],
    mixpanel: env.NEXT_PUBLIC_MIXPANEL_TOKEN ? MIXPANEL_API_ORIGIN : undefined,
  }
}

/** The Content-Security-Policy value. `dev`: `next dev` evaluates its modules (eval). */
function contentSecurityPolicy({ env = process.env, dev = false } = {}) {
  const sources = contentSources(env)
  const list = (...items) => items.flat().filter(Boolean).join(' ')
  const directives = {
    'default-src': "'self'",
    'script-src': list(
      "'self'",
      scriptHash(THEME_SCRIPT),
      scriptHash(SCRIPT_LOADER),
      FIREBASE_POPUP_SCRIPT_ORIGIN,
      dev && "'unsafe-eval'",
    ),
    // React's style attributes and flowbite's inline styles; scripts stay strict.
    'style-src': "'self' 'unsafe-inline'",
    // Node icons and publisher logos may be any https address.
    'img-src': list("'self'", 'https:', 'data:', sources.api),
    'font-src': "'self'",
    'connect-src': list("'self'", sources.api, sources.auth, sources.mixpanel),
    'frame-src': list(sources.authFrame),
    'frame-ancestors': "'none'",
    'form-action': "'self'",
    'base-uri': "'none'",
    'object-src': "'none'",
  }
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')
}

/** Browser features the site never uses, denied to it and to anything it embeds. */
const PERMISSIONS_POLICY = [
  'camera',
  'microphone',
  'geolocation',
  'payment',
  'usb',
  'display-capture',
  'browsing-topics',
]
  .map((feature) => `${feature}=()`)
  .join(', ')

/** Every header of every website response, as next.config.js `headers()` wants them. */
function securityHeaders(options = {}) {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(options) },
    // Older browsers that ignore frame-ancestors.
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'Permissions-Policy', value: PERMISSIONS_POLICY },
  ]
}

module.exports = {
  THEME_STORAGE_KEY,
  FONT_CLASS,
  FONT_FAMILY,
  FONT_STORAGE_KEY,
  THEME_SCRIPT,
  SCRIPT_LIST_ELEMENT_ID,
  SCRIPT_LOADER,
  scriptHash,
  contentSecurityPolicy,
  securityHeaders,
}
