// The guard of signed-in pages: while Firebase has not said who is signed in, a loading state;
// when nobody is, a redirect to the login page with the current address as `fromUrl`.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, type ReactNode } from 'react'
import { currentPath } from '@/components/header/Header'
import { useAuth, type AuthUser } from '@/src/lib/auth'

/** The login address that comes back to `asPath` after signing in. */
export function loginUrlFor(asPath: string): string {
  return `/auth/login?${new URLSearchParams({ fromUrl: currentPath(asPath) }).toString()}`
}

/** The signed-in user, or null while unknown or while redirecting a signed-out visitor. */
export function useRequireAuth(): AuthUser | null {
  const { user, loading } = useAuth()
  const router = useRouter()
  const signedOut = !loading && !user
  useEffect(() => {
    if (signedOut && router.isReady) void router.replace(loginUrlFor(router.asPath))
  }, [signedOut, router])
  return loading ? null : user
}

export function PageLoading({ label }: { label?: string }) {
  const { t } = useTranslation('common')
  return (
    <p role="status" className="py-12 text-center text-gray-700 dark:text-gray-300">
      {label ?? t('manage.loading')}
    </p>
  )
}

/** Renders `children(user)` for a signed-in user only. */
export function RequireAuth({ children }: { children: (user: AuthUser) => ReactNode }) {
  const { t } = useTranslation('common')
  const { loading } = useAuth()
  const user = useRequireAuth()
  if (user) return <>{children(user)}</>
  return <PageLoading label={loading ? undefined : t('manage.redirecting')} />
}
