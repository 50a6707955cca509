// Constants of the seed specification (sections 1, 7 and 9): one place, imported everywhere.
import type { SearchNodesSort } from '@/src/api/generated/model'

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

/** Queries are retried up to 3 times on 5xx or no answer, never on 4xx (sections 8 and 9). */
export const QUERY_MAX_RETRIES = 3
/** Cached data is stale at once and kept 24 hours (section 9). */
export const QUERY_STALE_TIME_MS = 0
export const QUERY_GC_TIME_MS = 86_400_000
/**
 * The data a page arrives with is refreshed once the page has loaded and the browser is idle,
 * or after this long at the latest (our design: the refresh must not compete with hydration).
 */
export const FIRST_LOAD_REFRESH_MAX_WAIT_MS = 2000
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

/** The home page search box updates the address this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300
/** Longest search text the API accepts (`search` maxLength in openapi.yml). */
export const SEARCH_MAX_LENGTH = 200
/** Most suggestions shown while typing (`limit` maximum and default of suggestNodes). */
export const SUGGESTIONS_MAX = 8
/** Common tags offered as filters on the home page (the tags the demo data uses most). */
// prettier-ignore
export const NODE_FILTER_TAGS = [
  'upscaling', 'video', 'audio', 'mask', 'controlnet', 'lora', 'face', 'inpainting',
  'segmentation', 'depth', 'animation', '3d', 'llm', 'utility',
] as const
/** Operating systems and accelerators a node can declare support for. */
export const NODE_FILTER_OS = ['windows', 'macos', 'linux'] as const
export const NODE_FILTER_ACCELERATORS = ['cuda', 'rocm', 'mps', 'cpu', 'xpu'] as const
/** Sort orders of the node listing, in the order shown (the contract's names: the compiler checks
 * them); `relevance` only applies to a search text. */
export const NODE_SORTS = [
  'relevance',
  'downloads',
  'stars',
  'recent',
  'newest',
  'name',
] as const satisfies readonly SearchNodesSort[]

/** The API client (section 7): the bearer token saved in session storage, no-cache headers. */
export const ID_TOKEN_STORAGE_KEY = 'comfy-registry-id-token'
export const NO_CACHE_REQUEST_HEADERS = {
  'Cache-Control': 'no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
  Expires: '0',
} as const

/** The stored language preference (section 1): Next's locale cookie, mirrored in local storage. */
export const LANGUAGE_COOKIE = 'NEXT_LOCALE'
export const LANGUAGE_STORAGE_KEY = 'i18nextLng'
export const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60

/** Dark mode preference (flowbite-react's key): light, dark or auto (the system's). */
export const THEME_STORAGE_KEY = 'flowbite-theme-mode'

/** Routes without the page header (section 2). */
export const ROUTES_WITHOUT_HEADER = ['/auth/login', '/auth/signup'] as const

/**
 * Present in local storage while someone is signed in on this browser (written at sign-in, removed
 * when Firebase reports nobody). Without it, and on pages that do not need sign-in, Firebase is
 * never loaded: anonymous visitors do not pay for it (issue 3's performance budget).
 */
export const SIGNED_IN_HINT_KEY = 'comfy-registry-signed-in'
/** Where sign-in leads when `fromUrl` is missing or not a path of this site. */
export const AFTER_SIGN_IN_DEFAULT_PATH = '/nodes'
/** The sign-in provider's minimum password length (seed section 5). */
export const PASSWORD_MIN_LENGTH = 6
/** The publisher id is checked this long after the last keystroke on the create form. */
export const PUBLISHER_ID_CHECK_DEBOUNCE_MS = 400
/** Nodes per publisher on the Your Nodes page. */
export const YOUR_NODES_PAGE_SIZE = 10

/**
 * Translation sections that only signed-in visitors see. Public pages leave them out of their
 * HTML and load them on demand when a signed-in visitor needs them (useTranslationSections).
 */
export const ON_DEMAND_TRANSLATION_SECTIONS = ['auth', 'manage', 'admin', 'account'] as const

/**
 * The reserved publisher of unclaimed nodes: the specification's "admin identifier constant"
 * (section 6), with the id today's registry uses, so every node carries a `publisher` (clients
 * read `node.publisher.name`). It can never be registered, edited or given members or tokens;
 * its nodes offer "Claim this node". See docs/ARCHITECTURE.md.
 */
export const UNCLAIMED_PUBLISHER = {
  id: 'admin-11338bd3-f081-43cf-b3f9-295c829826f7',
  name: 'Unclaimed',
  description:
    'Nodes that no publisher has claimed yet. The owner of a node’s GitHub repository can claim it on the node’s page.',
} as const

/**
 * POST /api/revalidate/nodes/{id} regenerates a node page in every language (about 0.5 s of
 * CPU): each client may ask this often, on top of once per node every 2 s.
 */
export const REVALIDATE_RATE_LIMIT = { capacity: 10, perMs: 60_000 } as const
export const REVALIDATE_INTERVAL_MS = 2000

/**
 * The API's rate limits: at most `max` requests per client (or per publisher, user or upload
 * link) in a fixed window of `windowMs`. A refused request gets 429 with Retry-After and changes
 * nothing. `RATE_LIMIT_SCALE` (server/config.ts) multiplies every `max` (0 turns limits off).
 */
export interface RateLimitRule {
  max: number
  windowMs: number
}

export const API_RATE_LIMITS = {
  /** Refused publish tokens (401/403) from one address: a person mistypes a token a few times. */
  publishFailuresPerIp: { max: 10, windowMs: 15 * 60_000 },
  /**
   * Refused publish tokens against one publisher from anywhere: stops guessing spread over many
   * addresses. Higher than per address, so one address alone cannot lock a publisher out.
   */
  publishFailuresPerPublisher: { max: 30, windowMs: 15 * 60_000 },
  /** Signed-in writes by one user: a person clicks far fewer than one a second. */
  signedInWritesPerUser: { max: 60, windowMs: 60_000 },
  /** Signed-in writes from one address: several people may share it (an office, a NAT). */
  signedInWritesPerIp: { max: 180, windowMs: 60_000 },
  /** Archive uploads from one address: one per publish; CI may publish several nodes at once. */
  uploadsPerIp: { max: 30, windowMs: 60_000 },
  /** Uploads to one link (valid 1 hour): comfy-cli's retries, not a stream of attempts. */
  uploadsPerLink: { max: 10, windowMs: 60 * 60_000 },
  /** Searches from one address: typing is debounced (SEARCH_DEBOUNCE_MS), about one a second. */
  searchesPerIp: { max: 120, windowMs: 60_000 },
  /** Suggestions from one address: asked on keystrokes, lighter than a search. */
  suggestionsPerIp: { max: 600, windowMs: 60_000 },
  /**
   * OIDC exchanges (trusted publishing) from one address: one per publish; CI runners share
   * addresses, and a refused token costs a signature check and a key fetch at most.
   */
  trustedPublishingExchangesPerIp: { max: 60, windowMs: 60_000 },
  /** Provider lookups by one account: ComfyUI polls each running job every second or so. */
  proxyLookupsPerCustomer: { max: 600, windowMs: 60_000 },
} as const satisfies Record<string, RateLimitRule>

/** Customers' credit: balances are integer millionths (micros) of this currency's unit. */
export const CUSTOMER_CURRENCY = 'usd'
export const MICROS_PER_CREDIT = 1_000_000
/** Customers' API keys: "cr_key_<public id>_<secret>" (server/auth/secrets.ts). */
export const CUSTOMER_API_KEY_PREFIX = 'cr_key_'

/**
 * What the pipeline keeps of a version's README and licence, and what the API serves of its
 * archive (server/pipeline/documents.ts, getNodeVersionFile). README files larger than the
 * source cap are not read; longer ones than maxReadmeBytes are kept truncated.
 */
export const NODE_VERSION_FILES = {
  maxReadmeSourceBytes: 4 * 1024 * 1024,
  maxReadmeBytes: 256 * 1024,
  maxImages: 50,
  maxImageBytes: 5 * 1024 * 1024,
  maxImagesTotalBytes: 50 * 1024 * 1024,
  maxLicenseBytes: 256 * 1024,
} as const

/**
 * The node page renders this much of a README's source on the server (cut at a paragraph);
 * the rest is loaded on "Show more". Keeps the page's HTML within its weight (ARCHITECTURE.md).
 */
export const README_FIRST_PART_CHARS = 4000
/** …and at most this much HTML (markup-heavy markdown is cut shorter); it is in the page twice. */
export const README_FIRST_PART_HTML_CHARS = 8000

/**
 * The audience the API expects in GitHub's OIDC tokens unless TRUSTED_PUBLISHING_AUDIENCE says
 * otherwise; the node settings' workflow steps request it (docs/PUBLISHING.md).
 */
export const DEFAULT_TRUSTED_PUBLISHING_AUDIENCE = 'comfy-registry'
