// The logout screen (seed section 2): a single Logout button that reads "Logging out..." while
// the logout runs (sign out, clear the query cache and both storages); then home.
import { useTranslation } from 'next-i18next/pages'
import { useState } from 'react'
import { useLogout } from '@/src/lib/auth'
import { CONTAINER_CLASS } from '@/components/common/Container'

export function LogoutScreen({ onLoggedOut }: { onLoggedOut: () => void }) {
  const { t } = useTranslation()
  const logOut = useLogout()
  const [busy, setBusy] = useState(false)

  const onClick = async () => {
    setBusy(true)
    if (await logOut()) onLoggedOut()
    else setBusy(false)
  }

  return (
    <main id="main-content" className={`${CONTAINER_CLASS} py-16 text-center`}>
      <h1 className="text-2xl font-bold text-gray-900 dark:text-white">{t('auth.logout.title')}</h1>
      <p className="mt-3 text-gray-700 dark:text-gray-300">{t('auth.logout.body')}</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void onClick()}
        className="mt-8 rounded-lg bg-blue-700 px-6 py-2.5 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none disabled:cursor-not-allowed disabled:opacity-60 dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800"
      >
        {busy ? t('auth.logout.busy') : t('auth.logout.button')}
      </button>
    </main>
  )
}
