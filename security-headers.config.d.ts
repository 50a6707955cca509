export const THEME_STORAGE_KEY: string
export const THEME_SCRIPT: string
export const FONT_CLASS: string
export const FONT_FAMILY: string
export const FONT_STORAGE_KEY: string
export const SCRIPT_LIST_ELEMENT_ID: string
export const SCRIPT_LOADER: string
export function scriptHash(source: string): string
export interface SecurityHeaderOptions {
  env?: NodeJS.ProcessEnv
  dev?: boolean
}
export function contentSecurityPolicy(options?: SecurityHeaderOptions): string
export function securityHeaders(options?: SecurityHeaderOptions): { key: string; value: string }[]
