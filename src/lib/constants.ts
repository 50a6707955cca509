// Constants of the seed specification (sections 1, 7 and 9): one place, imported everywhere.

/** Supported languages, each with its native name (section 1). */
export const LANGUAGES = [
  { code: 'en', nativeName: 'English' },
  { code: 'zh', nativeName: '中文' },
  { code: 'ja', nativeName: '日本語' },
  { code: 'fr', nativeName: 'Français' },
  { code: 'es', nativeName: 'Español' },
  { code: 'ko', nativeName: '한국어' },
  { code: 'ru', nativeName: 'Русский' },
] as const
export const DEFAULT_LANGUAGE = 'en'

/** Queries are retried up to 3 times, never on 404 (sections 8 and 9). */
export const QUERY_MAX_RETRIES = 3
/** Cached data is stale at once and kept 24 hours (section 9). */
export const QUERY_STALE_TIME_MS = 0
export const QUERY_GC_TIME_MS = 86_400_000
/** The persisted cache (section 9). */
export const PERSISTED_CACHE_KEY = 'comfy-registry-cache'
export const PERSISTED_CACHE_MAX_AGE_MS = 86_400_000
export const PERSISTED_CACHE_THROTTLE_MS = 1000

/** Notifications (section 9). */
export const TOAST_AUTO_CLOSE_MS = 5000
export const TOAST_POSITION = 'top-right'
export const TOAST_REMOVAL_ANIMATION_MS = 300
export const TOAST_DRAG_PERCENT = 80

/** Sign-in token refresh (section 9). */
export const TOKEN_REFRESH_BEFORE_EXPIRY_MS = 5 * 60 * 1000
export const TOKEN_REFRESH_BACKOFF_START_MS = 30_000
export const TOKEN_REFRESH_BACKOFF_MAX_MS = 16 * 60 * 1000

/** Documentation and community links (design.md section 8). */
export const DOCS_URL = 'https://docs.comfy.org/registry/overview'
export const DOCS_URL_ZH = 'https://docs.comfy.org/zh-CN/registry/overview'
export const PUBLISHING_DOCS_URL = 'https://docs.comfy.org/registry/publishing'
export const DISCORD_INVITE_URL = 'https://discord.com/invite/comfyorg'

/** Page size of the node listing on the home page. */
export const NODES_PAGE_SIZE = 24
