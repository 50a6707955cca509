export const PUBLIC_PAGE_MAX_AGE_S: number
export const PUBLIC_PAGE_STALE_S: number
export const PUBLIC_PAGE_CACHE_CONTROL: string
