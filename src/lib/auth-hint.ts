// Whether this browser needs Firebase at all (issue 3: anonymous visitors never load it). A small
// local-storage hint remembers that someone signed in here; pages that need sign-in load it anyway.
import { SIGNED_IN_HINT_KEY } from './constants'

export function hasSignedInHint(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT_KEY) !== null
  } catch {
    return false
  }
}

export function setSignedInHint(): void {
  try {
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1')
  } catch {
    // Storage unavailable: Firebase then only loads on pages that need sign-in.
  }
}

export function clearSignedInHint(): void {
  try {
    localStorage.removeItem(SIGNED_IN_HINT_KEY)
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/**
 * Firebase is needed when the page requires sign-in, when someone signed in on this browser
 * before (the hint), or when some code already asked for it (a sign-in form, the e2e hook).
 */
export function needsFirebase({
  pageRequiresAuth,
  hint,
  requested,
}: {
  pageRequiresAuth: boolean
  hint: boolean
  requested: boolean
}): boolean {
  return pageRequiresAuth || hint || requested
}
