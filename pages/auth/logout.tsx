import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { LogoutScreen } from '@/components/auth/LogoutScreen'
import { Seo } from '@/components/common/Seo'
import { translationsOnly } from '@/src/lib/page-props'

export default function LogoutPage() {
  const { t } = useTranslation()
  const router = useRouter()
  return (
    <>
      <Seo
        title={t('auth.logout.title')}
        description={t('auth.logout.body')}
        path="/auth/logout"
        noindex
      />
      <LogoutScreen onLoggedOut={() => void router.replace('/')} />
    </>
  )
}
// The header shows who is signed in here: Firebase loads for this page.
LogoutPage.requiresAuth = true

export const getServerSideProps = translationsOnly
