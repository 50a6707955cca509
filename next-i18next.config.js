// Seven languages (seed spec, section 1). Default and fallback: en; one namespace: common.
/** @type {import('next-i18next').UserConfig} */
module.exports = {
  i18n: {
    defaultLocale: 'en',
    locales: ['en', 'zh', 'ja', 'fr', 'es', 'ko', 'ru'],
    localeDetection: false,
  },
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: ['common'],
}
