// Inter after the first page (docs/ARCHITECTURE.md "Largest contentful paint"): SCRIPT_LOADER
// fetches it once the first page has painted and notes under FONT_STORAGE_KEY when it has loaded;
// the first page keeps next/font's fallback (no second layout of a page being read), and the
// next one, loaded or reached client-side, is set in Inter.

/** The class on <html> that lets text be set in Inter (security-headers.config.js FONT_CLASS). */
export const FONT_CLASS = 'with-inter'

/** Set once Inter has loaded in this tab (security-headers.config.js FONT_STORAGE_KEY). */
export const FONT_STORAGE_KEY = 'registry-font'

/** Puts FONT_CLASS on <html> once Inter has loaded: called as a client-side navigation ends. */
export function applyInterIfLoaded(): void {
  try {
    if (sessionStorage.getItem(FONT_STORAGE_KEY)) {
      document.documentElement.classList.add(FONT_CLASS)
    }
  } catch {
    // No sessionStorage (blocked): the fallback stays.
  }
}
