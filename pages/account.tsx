// "Your account" (signed in only): the user's credit balance, API keys and ledger. Private data,
// fetched in the browser with the user's token; the page itself carries translations only.
import { useTranslation } from 'next-i18next/pages'
import { Account } from '@/components/account/Account'
import { RequireAuth } from '@/components/auth/RequireAuth'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { Seo } from '@/components/common/Seo'
import { MUTED } from '@/components/manage/styles'
import { translationsOnly } from '@/src/lib/page-props'
import { ACCOUNT_PATH } from '@/src/lib/paths'

export default function AccountPage() {
  const { t } = useTranslation('common')
  return (
    <>
      <Seo
        title={t('account.title')}
        description={t('account.intro')}
        path={ACCOUNT_PATH}
        noindex
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8 *:max-w-5xl`}>
        <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-white">
          {t('account.title')}
        </h1>
        <p className={`mt-2 mb-6 ${MUTED}`}>{t('account.intro')}</p>
        <RequireAuth>{() => <Account />}</RequireAuth>
      </main>
    </>
  )
}

AccountPage.requiresAuth = true

export const getServerSideProps = translationsOnly
