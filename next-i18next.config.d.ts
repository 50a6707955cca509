import type { UserConfig } from 'next-i18next'

declare const config: UserConfig & {
  i18n: { defaultLocale: string; locales: string[]; localeDetection: false }
}
export = config
