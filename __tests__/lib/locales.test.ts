import fs from 'node:fs'
import path from 'node:path'
import { LANGUAGES } from '@/src/lib/constants'
import nextI18nextConfig from '@/next-i18next.config'

type Tree = { [key: string]: string | Tree }

const flatten = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : flatten(value, `${prefix}${key}.`),
  )
// Plural forms differ per language (ru has _few and _many): compare the base key.
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')
const load = (lang: string) =>
  JSON.parse(
    fs.readFileSync(path.join(__dirname, '../../public/locales', lang, 'common.json'), 'utf8'),
  ) as Tree

describe('locales', () => {
  it('configures exactly the seven languages of the spec, default en', () => {
    expect([...nextI18nextConfig.i18n.locales].sort()).toEqual([
      'en',
      'es',
      'fr',
      'ja',
      'ko',
      'ru',
      'zh',
    ])
    expect(LANGUAGES.map((language) => language.code).sort()).toEqual([
      'en',
      'es',
      'fr',
      'ja',
      'ko',
      'ru',
      'zh',
    ])
    expect(nextI18nextConfig.i18n.defaultLocale).toBe('en')
  })

  const english = new Set(flatten(load('en')).map(baseKey))
  it.each(LANGUAGES.map((language) => language.code))(
    '%s has every key of en and no others',
    (lang) => {
      const keys = new Set(flatten(load(lang)).map(baseKey))
      expect([...english].filter((key) => !keys.has(key))).toEqual([])
      expect([...keys].filter((key) => !english.has(key))).toEqual([])
    },
  )

  // A button whose accessible name adds detail (`deleteOf`: "Delete version {{version}}") must
  // still contain its visible text (`delete`), so speech users can say what they see (WCAG 2.5.3).
  it.each(LANGUAGES.map((language) => language.code))(
    '%s: every xOf / xLabel name contains the visible text x',
    (lang) => {
      const problems: string[] = []
      const walk = (tree: Tree, prefix: string) => {
        for (const [key, value] of Object.entries(tree)) {
          if (typeof value !== 'string') {
            walk(value, `${prefix}${key}.`)
            continue
          }
          const visible = tree[key.replace(/(Of|Label)$/, '')]
          // Visible texts with placeholders are not button labels (e.g. nodes.page vs pageOf).
          if (!/(Of|Label)$/.test(key) || typeof visible !== 'string' || visible.includes('{{'))
            continue
          if (!value.toLowerCase().includes(visible.toLowerCase())) {
            problems.push(`${prefix}${key}: "${value}" lacks "${visible}"`)
          }
        }
      }
      walk(load(lang), '')
      expect(problems).toEqual([])
    },
  )
})
