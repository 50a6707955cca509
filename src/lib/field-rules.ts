// Field rules that the contract's patterns cannot express, shared by the API (server/http/
// validate.ts) and the owners' forms (components/manage/validation.ts), so a value one accepts the
// other accepts too. URLs are parsed, never pattern-matched: browsers read `/\host` as `//host`.
/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

const SITE = 'http://site.invalid'

/**
 * A path on this site (`/icons/node-0.svg`): one leading slash, no backslash or control
 * characters, and it resolves to this site. `//host/x` and `/\host/x` name another host.
 */
export function isSitePath(value: string): boolean {
  if (!value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return false
  try {
    return new URL(value, SITE).origin === SITE
  } catch {
    return false
  }
}

/** An image: an absolute http(s) URL, or a path on this site. */
export function isImageReference(value: string): boolean {
  return isHttpUrl(value) || isSitePath(value)
}

export function isEmail(value: string): boolean {
  // The contract bounds the length (maxLength of the email fields).
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
}

/** A support contact: an email address (`mailto:` allowed) or an http(s) URL. */
export function isSupportContact(value: string): boolean {
  return isEmail(value.replace(/^mailto:/i, '')) || isHttpUrl(value)
}

/** Shown for a node or publisher without a usable image (none, not loading, or not an image URL). */
export const FALLBACK_IMAGE = '/icons/node-0.svg'

/** The image to show: `value` if it is an image reference (see above), else the fallback. */
export function imageSource(value: string | undefined): string {
  return value && isImageReference(value) ? value : FALLBACK_IMAGE
}
