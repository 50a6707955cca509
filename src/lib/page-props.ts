// Props of pages without server data (sign-in pages, and signed-in pages whose data is private and
// fetched in the browser with the user's token): their translations only. Rendered per request,
// not at build time, so the page carries this deployment's public settings (Firebase, API).
import type { GetServerSideProps } from 'next'
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations'
import nextI18nextConfig from '@/next-i18next.config'
import { DEFAULT_LANGUAGE } from './constants'

export const translationsOnly: GetServerSideProps = async ({ locale }) => ({
  props: await serverSideTranslations(locale ?? DEFAULT_LANGUAGE, ['common'], nextI18nextConfig),
})
