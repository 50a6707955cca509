// Props of signed-in pages: translations only. Their data is private, so it is fetched in the
// browser with the user's token, never rendered on the server.
import type { GetStaticPaths, GetStaticProps } from 'next'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE } from './constants'

export const privatePageProps: GetStaticProps = async ({ locale }) => ({
  props: await serverSideTranslations(locale ?? DEFAULT_LANGUAGE, ['common'], nextI18nextConfig),
})

/** Dynamic private pages: any id, the same translated shell on first request. */
export const privatePagePaths: GetStaticPaths = async () => ({ paths: [], fallback: 'blocking' })
