// Analytics (seed section 1): events, identification and profile updates go to Mixpanel only
// when the public environment setting is `production`; otherwise they are logged to the console.
import type { OverridedMixpanel } from 'mixpanel-browser'
import { publicEnv } from './public-env'

export const ANALYTICS_PRODUCTION_ENVIRONMENT = 'production'

type Properties = Record<string, string | number | boolean | null | undefined>

let mixpanel: Promise<OverridedMixpanel | undefined> | undefined

function sendsToMixpanel(): boolean {
  return publicEnv().environment === ANALYTICS_PRODUCTION_ENVIRONMENT
}

/** Mixpanel, loaded and initialised on first use (never outside production). */
function loadMixpanel(): Promise<OverridedMixpanel | undefined> {
  mixpanel ??= import('mixpanel-browser').then(({ default: client }) => {
    const token = publicEnv().mixpanelToken
    if (!token) return undefined
    client.init(token, { track_pageview: false, persistence: 'localStorage' })
    return client
  })
  return mixpanel
}

/** Forgets the loaded client (tests). */
export function resetAnalytics(): void {
  mixpanel = undefined
}

export async function track(event: string, properties: Properties = {}): Promise<void> {
  if (!sendsToMixpanel()) return console.log('[analytics] track', event, properties)
  ;(await loadMixpanel())?.track(event, properties)
}

export async function identify(distinctId: string): Promise<void> {
  if (!sendsToMixpanel()) return console.log('[analytics] identify', distinctId)
  ;(await loadMixpanel())?.identify(distinctId)
}

export async function setProfile(updates: Properties): Promise<void> {
  if (!sendsToMixpanel()) return console.log('[analytics] profile', updates)
  ;(await loadMixpanel())?.people.set(updates)
}
