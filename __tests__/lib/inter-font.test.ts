// Inter from the second page of a visit on (src/lib/inter-font.ts, SCRIPT_LOADER).
import * as config from '@/security-headers.config'
import { applyInterIfLoaded, FONT_CLASS, FONT_STORAGE_KEY } from '@/src/lib/inter-font'

describe('Inter after the first page', () => {
  afterEach(() => {
    sessionStorage.clear()
    document.documentElement.classList.remove(FONT_CLASS)
  })

  it('uses the names the inline loader uses', () => {
    expect(FONT_CLASS).toBe(config.FONT_CLASS)
    expect(FONT_STORAGE_KEY).toBe(config.FONT_STORAGE_KEY)
  })

  it('sets the page reached client-side in Inter once it has loaded, not before', () => {
    applyInterIfLoaded()
    expect(document.documentElement.classList.contains(FONT_CLASS)).toBe(false)
    sessionStorage.setItem(FONT_STORAGE_KEY, '1')
    applyInterIfLoaded()
    expect(document.documentElement.classList.contains(FONT_CLASS)).toBe(true)
  })
})
