// The login and signup forms: email and password (signup: at least 6 characters, typed twice),
// Google and GitHub, and on login a password reset. Every provider error shows as a translated
// message; everything is disabled while one attempt runs.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useId, useRef, useState, type FormEvent } from 'react'
import { PASSWORD_MIN_LENGTH } from '@/src/lib/constants'
import {
  GENERIC_ERROR_KEY,
  authErrorCode,
  authErrorKey,
  firebaseSignInMethods,
  type OAuthProviderName,
  type SignInMethods,
} from '@/src/lib/sign-in'
import { GithubIcon, GoogleIcon } from './icons'

export type SignInMode = 'login' | 'signup'

export interface SignInFields {
  email: string
  password: string
  confirmPassword: string
}

export type FieldErrors = Partial<Record<keyof SignInFields, string>>

// Deliberately loose (something@something): the provider has the final word (auth/invalid-email).
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/

/** Translation keys of what is wrong with the fields, checked before asking the provider. */
export function validateSignInFields(mode: SignInMode, fields: SignInFields): FieldErrors {
  const errors: FieldErrors = {}
  const email = fields.email.trim()
  if (!email) errors.email = 'auth.validation.emailRequired'
  else if (!EMAIL_SHAPE.test(email)) errors.email = 'auth.validation.emailInvalid'
  if (!fields.password) errors.password = 'auth.validation.passwordRequired'
  else if (mode === 'signup' && fields.password.length < PASSWORD_MIN_LENGTH) {
    errors.password = 'auth.validation.passwordTooShort'
  }
  if (mode === 'signup' && !errors.password && fields.confirmPassword !== fields.password) {
    errors.confirmPassword = 'auth.validation.passwordsDiffer'
  }
  return errors
}

type Busy = false | 'email' | OAuthProviderName | 'reset'

const INPUT_CLASS =
  'mt-1 block w-full rounded-lg border bg-gray-50 px-3 py-2.5 text-sm text-gray-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600 focus:outline-none disabled:opacity-60 dark:bg-gray-700 dark:text-white'
const PRIMARY_BUTTON_CLASS =
  'w-full rounded-lg bg-blue-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-blue-800 focus:ring-4 focus:ring-blue-300 focus:outline-none disabled:cursor-not-allowed disabled:opacity-60 dark:bg-blue-600 dark:hover:bg-blue-700 dark:focus:ring-blue-800'
const PROVIDER_BUTTON_CLASS =
  'flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 bg-white px-5 py-2.5 text-sm font-medium text-gray-900 hover:bg-gray-100 focus:ring-4 focus:ring-gray-200 focus:outline-none disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-600 dark:bg-gray-800 dark:text-white dark:hover:bg-gray-700 dark:focus:ring-gray-700'
const LINK_CLASS =
  'font-medium text-blue-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-blue-400'

export interface SignInFormProps {
  mode: SignInMode
  /** The raw `fromUrl` of the address, carried over to the other sign-in page. */
  fromUrl?: string
  /** Called after a successful sign-in or signup. */
  onSignedIn: () => void
  methods?: SignInMethods
}

export function SignInForm({
  mode,
  fromUrl,
  onSignedIn,
  methods = firebaseSignInMethods,
}: SignInFormProps) {
  const { t } = useTranslation()
  const id = useId()
  const [fields, setFields] = useState<SignInFields>({
    email: '',
    password: '',
    confirmPassword: '',
  })
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const [errorKey, setErrorKey] = useState<string | null>(null)
  const [noticeKey, setNoticeKey] = useState<string | null>(null)
  const [busy, setBusy] = useState<Busy>(false)
  const inputs = {
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    confirmPassword: useRef<HTMLInputElement>(null),
  }

  const attempt = async (what: Exclude<Busy, false>, action: () => Promise<void>) => {
    setBusy(what)
    setErrorKey(null)
    setNoticeKey(null)
    try {
      await action()
      onSignedIn()
      // Stay busy: the page is leaving.
    } catch (error) {
      const key = authErrorKey(error)
      // Unexpected failures get the generic message; the details go to the console for support.
      if (key === GENERIC_ERROR_KEY) console.error(error)
      setErrorKey(key)
      setBusy(false)
    }
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const errors = validateSignInFields(mode, fields)
    setFieldErrors(errors)
    const firstInvalid = (['email', 'password', 'confirmPassword'] as const).find(
      (name) => errors[name],
    )
    if (firstInvalid) {
      inputs[firstInvalid].current?.focus()
      return
    }
    const email = fields.email.trim()
    void attempt('email', () =>
      mode === 'login'
        ? methods.signInWithEmail(email, fields.password)
        : methods.signUpWithEmail(email, fields.password),
    )
  }

  const onResetPassword = async () => {
    const emailError = validateSignInFields('login', { ...fields, password: 'x' }).email
    if (emailError) {
      setFieldErrors({ email: 'auth.reset.needEmail' })
      inputs.email.current?.focus()
      return
    }
    setFieldErrors({})
    setBusy('reset')
    setErrorKey(null)
    setNoticeKey(null)
    try {
      await methods.sendPasswordReset(fields.email.trim())
      setNoticeKey('auth.reset.sent')
    } catch (error) {
      // Unknown addresses get the same answer: the form does not reveal who has an account.
      if (authErrorCode(error) === 'auth/user-not-found') setNoticeKey('auth.reset.sent')
      else setErrorKey(authErrorKey(error))
    } finally {
      setBusy(false)
    }
  }

  const field = (name: keyof SignInFields, label: string, type: string, autoComplete: string) => {
    const inputId = `${id}-${name}`
    const errorId = `${inputId}-error`
    const error = fieldErrors[name]
    return (
      <div>
        <label
          htmlFor={inputId}
          className="block text-sm font-medium text-gray-900 dark:text-gray-100"
        >
          {label}
        </label>
        <input
          ref={inputs[name]}
          id={inputId}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={fields[name]}
          disabled={busy !== false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            const value = event.target.value
            setFields((current) => ({ ...current, [name]: value }))
          }}
          className={`${INPUT_CLASS} ${
            error ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600'
          }`}
        />
        {error && (
          <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {t(error, { min: PASSWORD_MIN_LENGTH })}
          </p>
        )}
      </div>
    )
  }

  const otherPage = mode === 'login' ? '/auth/signup' : '/auth/login'
  return (
    <div className="mt-6 space-y-6">
      {errorKey && (
        <div
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-gray-900 dark:text-red-300"
        >
          {t(errorKey)}
        </div>
      )}
      <p role="status" className={noticeKey ? 'text-sm text-green-800 dark:text-green-300' : ''}>
        {noticeKey ? t(noticeKey) : ''}
      </p>
      <div className="space-y-3">
        {(['google', 'github'] as const).map((provider) => (
          <button
            key={provider}
            type="button"
            disabled={busy !== false}
            className={PROVIDER_BUTTON_CLASS}
            onClick={() => void attempt(provider, () => methods.signInWithProvider(provider))}
          >
            {provider === 'google' ? <GoogleIcon /> : <GithubIcon />}
            {busy === provider ? t('auth.waitingForProvider') : t(`auth.continueWith.${provider}`)}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-3 text-sm text-gray-600 dark:text-gray-300">
        <span className="h-px flex-1 bg-gray-200 dark:bg-gray-600" aria-hidden="true" />
        {t('auth.or')}
        <span className="h-px flex-1 bg-gray-200 dark:bg-gray-600" aria-hidden="true" />
      </div>
      <form
        noValidate
        onSubmit={onSubmit}
        className="space-y-4"
        aria-label={t(`auth.${mode}.form`)}
      >
        {field('email', t('auth.email'), 'email', 'email')}
        {field(
          'password',
          t('auth.password'),
          'password',
          mode === 'login' ? 'current-password' : 'new-password',
        )}
        {mode === 'signup' && (
          <>
            <p className="text-sm text-gray-600 dark:text-gray-300">
              {t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
            </p>
            {field('confirmPassword', t('auth.confirmPassword'), 'password', 'new-password')}
          </>
        )}
        {mode === 'login' && (
          <button
            type="button"
            disabled={busy !== false}
            onClick={() => void onResetPassword()}
            className={`${LINK_CLASS} text-sm disabled:opacity-60`}
          >
            {busy === 'reset' ? t('auth.reset.sending') : t('auth.reset.link')}
          </button>
        )}
        <button type="submit" disabled={busy !== false} className={PRIMARY_BUTTON_CLASS}>
          {busy === 'email' ? t(`auth.${mode}.busy`) : t(`auth.${mode}.submit`)}
        </button>
      </form>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        {t(`auth.${mode}.switchPrompt`)}{' '}
        <Link
          href={{ pathname: otherPage, query: fromUrl ? { fromUrl } : {} }}
          className={LINK_CLASS}
        >
          {t(`auth.${mode}.switchLink`)}
        </Link>
      </p>
    </div>
  )
}
