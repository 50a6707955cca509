import {
  detectPageLanguage,
  keepPageLanguage,
  languageOfTag,
  readLanguagePreference,
} from '@/src/lib/i18n'

describe('language detection (seed section 1)', () => {
  afterEach(() => {
    document.documentElement.lang = ''
    localStorage.clear()
  })

  it("reads the page's language tag only", () => {
    Object.defineProperty(navigator, 'language', { value: 'ja-JP', configurable: true })
    document.documentElement.lang = 'fr'
    expect(detectPageLanguage()).toBe('fr')
    document.documentElement.lang = ''
    expect(detectPageLanguage()).toBe('en')
  })

  it('writes the language tag only when the locale differs (a write restyles the whole page)', async () => {
    document.documentElement.lang = 'en'
    const writes: (string | null)[] = []
    const observer = new MutationObserver((records) =>
      writes.push(...records.map((record) => record.oldValue)),
    )
    observer.observe(document.documentElement, {
      attributeFilter: ['lang'],
      attributeOldValue: true,
    })
    keepPageLanguage('en')
    keepPageLanguage('ja')
    keepPageLanguage('ja')
    await Promise.resolve()
    observer.disconnect()
    expect(writes).toEqual(['en'])
    expect(document.documentElement.lang).toBe('ja')
  })

  it('maps region tags to a supported language, else en', () => {
    expect(languageOfTag('zh-CN')).toBe('zh')
    expect(languageOfTag('KO')).toBe('ko')
    expect(languageOfTag('de')).toBe('en')
    expect(languageOfTag(undefined)).toBe('en')
  })

  it('reads only a supported stored preference', () => {
    localStorage.setItem('i18nextLng', 'es')
    expect(readLanguagePreference()).toBe('es')
    localStorage.setItem('i18nextLng', 'xx')
    expect(readLanguagePreference()).toBeUndefined()
  })
})
