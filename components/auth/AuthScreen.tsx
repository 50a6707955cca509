// The body of /auth/login and /auth/signup: the form, or, once someone is signed in (now or
// already), the way on to `fromUrl` when it is a path of this site, else to /nodes.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useCallback, useEffect, useRef } from 'react'
import { Seo } from '@/components/common/Seo'
import { useAuth } from '@/src/lib/auth'
import { safeRedirectPath, type SignInMethods } from '@/src/lib/sign-in'
import { AuthFrame } from './AuthFrame'
import { SignInForm, type SignInMode } from './SignInForm'

export function AuthScreen({ mode, methods }: { mode: SignInMode; methods?: SignInMethods }) {
  const { t } = useTranslation()
  const router = useRouter()
  const { user, loading } = useAuth()
  const fromUrl = typeof router.query.fromUrl === 'string' ? router.query.fromUrl : undefined
  const leaving = useRef(false)

  const goOn = useCallback(() => {
    if (leaving.current) return
    leaving.current = true
    void router.replace(safeRedirectPath(router.query.fromUrl, window.location.origin))
  }, [router])

  // Already signed in (or just signed in): straight on.
  useEffect(() => {
    if (!loading && user && router.isReady) goOn()
  }, [loading, user, router.isReady, goOn])

  const title = t(`auth.${mode}.title`)
  return (
    <AuthFrame title={title}>
      <Seo title={title} description={t('site.description')} path={`/auth/${mode}`} noindex />
      {user ? (
        <p role="status" className="mt-6 text-gray-700 dark:text-gray-300">
          {t('auth.redirecting')}
        </p>
      ) : (
        <SignInForm mode={mode} fromUrl={fromUrl} onSignedIn={goOn} methods={methods} />
      )}
    </AuthFrame>
  )
}
