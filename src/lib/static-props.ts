// Props of pages without server data: their translations only (rendered once per locale).
import type { GetStaticProps } from 'next'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE } from './constants'

export const translationsOnly: GetStaticProps = async ({ locale }) => ({
  props: await serverSideTranslations(locale ?? DEFAULT_LANGUAGE, ['common'], nextI18nextConfig),
})
