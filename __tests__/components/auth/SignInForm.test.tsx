// The login and signup screens with the Firebase calls replaced through their seam (the
// `methods` prop): validation, disabled states while working, provider errors, and where a
// successful sign-in leads.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { AuthScreen } from '@/components/auth/AuthScreen'
import { validateSignInFields } from '@/components/auth/SignInForm'
import type { AuthUser } from '@/src/lib/auth'
import type { SignInMethods } from '@/src/lib/sign-in'
import { renderWithProviders } from '../../test-utils'

function fakeMethods(overrides: Partial<SignInMethods> = {}): jest.Mocked<SignInMethods> {
  return {
    signInWithEmail: jest.fn(() => Promise.resolve()),
    signUpWithEmail: jest.fn(() => Promise.resolve()),
    signInWithProvider: jest.fn(() => Promise.resolve()),
    sendPasswordReset: jest.fn(() => Promise.resolve()),
    ...overrides,
  } as jest.Mocked<SignInMethods>
}

/** A promise the test settles itself. */
function deferred() {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const firebaseError = (code: string) => Object.assign(new Error(`Firebase: (${code})`), { code })

function renderScreen(
  mode: 'login' | 'signup',
  methods: SignInMethods,
  { fromUrl, user, locale }: { fromUrl?: string; user?: AuthUser; locale?: string } = {},
) {
  const query: Record<string, string> = fromUrl === undefined ? {} : { fromUrl }
  return renderWithProviders(<AuthScreen mode={mode} methods={methods} />, {
    locale,
    router: { pathname: `/auth/${mode}`, asPath: `/auth/${mode}`, query },
    auth: { user: user ?? null },
  })
}

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('validateSignInFields', () => {
  const fields = { email: 'a@example.com', password: 'secret1', confirmPassword: 'secret1' }
  it('accepts good fields', () => {
    expect(validateSignInFields('login', fields)).toEqual({})
    expect(validateSignInFields('signup', fields)).toEqual({})
  })
  it('the 6-character minimum applies to signup only (login passwords are the provider’s)', () => {
    const short = { ...fields, password: '12345', confirmPassword: '12345' }
    expect(validateSignInFields('signup', short)).toEqual({
      password: 'auth.validation.passwordTooShort',
    })
    expect(validateSignInFields('signup', { ...short, password: '123456' })).toEqual({
      confirmPassword: 'auth.validation.passwordsDiffer',
    })
    expect(validateSignInFields('login', short)).toEqual({})
  })
  it('needs an email that looks like one', () => {
    expect(validateSignInFields('login', { ...fields, email: '  ' }).email).toBe(
      'auth.validation.emailRequired',
    )
    expect(validateSignInFields('login', { ...fields, email: 'ada' }).email).toBe(
      'auth.validation.emailInvalid',
    )
  })
})

describe('/auth/login', () => {
  it('shows the email form, Google and GitHub, and a signup link that keeps fromUrl', () => {
    renderScreen('login', fakeMethods(), { fromUrl: '/publishers/comfy-demo' })
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in to Comfy Registry')
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeEnabled()
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/auth/signup?fromUrl=%2Fpublishers%2Fcomfy-demo',
    )
    expect(screen.getByRole('link', { name: 'Comfy Registry' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('banner')).not.toBeInTheDocument()
  })

  it('says what is missing before asking the provider, and focuses the first field', () => {
    const methods = fakeMethods()
    renderScreen('login', methods)
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument()
    expect(screen.getByText('Enter your password.')).toBeInTheDocument()
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('Enter your email address.')
    expect(email).toHaveFocus()

    type('Email', 'not-an-email')
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(
      screen.getByText('Enter a valid email address, like name@example.com.'),
    ).toBeInTheDocument()
    expect(methods.signInWithEmail).not.toHaveBeenCalled()
  })

  it('disables everything while signing in, then shows the wrong-password message', async () => {
    const pending = deferred()
    const methods = fakeMethods({ signInWithEmail: jest.fn(() => pending.promise) })
    const { router } = renderScreen('login', methods)
    type('Email', ' ada@example.com ')
    type('Password', 'nope-nope')
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))

    expect(methods.signInWithEmail).toHaveBeenCalledWith('ada@example.com', 'nope-nope')
    expect(screen.getByRole('button', { name: 'Logging in…' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeDisabled()
    expect(screen.getByLabelText('Email')).toBeDisabled()
    expect(screen.getByLabelText('Password')).toBeDisabled()

    await act(async () => pending.reject(firebaseError('auth/wrong-password')))
    expect(screen.getByRole('alert')).toHaveTextContent(
      'That password is not right. Try again or reset your password.',
    )
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled()
    expect(router.replace).not.toHaveBeenCalled()
  })

  it.each([
    ['auth/invalid-credential', 'The email or password is not right. Check both and try again.'],
    ['auth/user-not-found', 'No account uses this email. Check it, or create an account.'],
    ['auth/too-many-requests', 'Too many attempts. Wait a few minutes, then try again.'],
    ['auth/network-request-failed', 'Could not reach the sign-in service.'],
    ['auth/some-new-code', 'Signing in did not work. Please try again.'],
  ])('a rejected sign-in with %s shows its message', async (code, message) => {
    const methods = fakeMethods({
      signInWithEmail: jest.fn(() => Promise.reject(firebaseError(code))),
    })
    renderScreen('login', methods)
    type('Email', 'ada@example.com')
    type('Password', 'whatever')
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
  })

  it('Google and GitHub open the provider pop-up; a closed or blocked pop-up is explained', async () => {
    const methods = fakeMethods({
      signInWithProvider: jest
        .fn()
        .mockRejectedValueOnce(firebaseError('auth/popup-closed-by-user'))
        .mockRejectedValueOnce(firebaseError('auth/popup-blocked')),
    })
    renderScreen('login', methods)
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }))
    expect(screen.getByRole('button', { name: /Finish signing in/ })).toBeDisabled()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The sign-in window was closed before signing in finished.',
    )
    expect(methods.signInWithProvider).toHaveBeenLastCalledWith('google')

    fireEvent.click(screen.getByRole('button', { name: 'Continue with GitHub' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Your browser blocked the sign-in window.',
      ),
    )
    expect(methods.signInWithProvider).toHaveBeenLastCalledWith('github')
  })

  it('after signing in goes to fromUrl when it is a path of this site', async () => {
    const { router } = renderScreen('login', fakeMethods(), {
      fromUrl: '/publishers/comfy-demo?tab=nodes',
    })
    type('Email', 'ada@example.com')
    type('Password', 'secret1')
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() =>
      expect(router.replace).toHaveBeenCalledWith('/publishers/comfy-demo?tab=nodes'),
    )
    expect(router.replace).toHaveBeenCalledTimes(1)
  })

  it('never follows an outside fromUrl: /nodes instead', async () => {
    const { router } = renderScreen('login', fakeMethods({}), { fromUrl: '//evil.example' })
    fireEvent.click(screen.getByRole('button', { name: 'Continue with GitHub' }))
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/nodes'))
  })

  it('someone already signed in goes straight on', () => {
    const user: AuthUser = { uid: 'u', email: 'a@example.com', displayName: null, photoURL: null }
    const { router } = renderScreen('login', fakeMethods(), { fromUrl: '/nodes/x', user })
    expect(router.replace).toHaveBeenCalledWith('/nodes/x')
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('You are signed in. Taking you on…')
  })

  it('forgot password: asks for the email, then confirms without revealing accounts', async () => {
    const methods = fakeMethods({
      sendPasswordReset: jest
        .fn()
        .mockResolvedValueOnce(undefined)
        .mockRejectedValueOnce(firebaseError('auth/user-not-found')),
    })
    renderScreen('login', methods)
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }))
    expect(
      screen.getByText('Enter your email address above to reset your password.'),
    ).toBeInTheDocument()
    expect(methods.sendPasswordReset).not.toHaveBeenCalled()

    const sent = 'If an account uses this email, we have sent it a link to reset the password.'
    type('Email', 'ada@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }))
    expect(await screen.findByText(sent)).toBeInTheDocument()
    expect(methods.sendPasswordReset).toHaveBeenCalledWith('ada@example.com')

    type('Email', 'nobody@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }))
    await waitFor(() => expect(methods.sendPasswordReset).toHaveBeenCalledTimes(2))
    expect(await screen.findByText(sent)).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

describe('/auth/signup', () => {
  it('checks the 6-character minimum and the confirmation before creating the account', () => {
    const methods = fakeMethods()
    renderScreen('signup', methods, { fromUrl: '/publishers/comfy-demo' })
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      '/auth/login?fromUrl=%2Fpublishers%2Fcomfy-demo',
    )
    type('Email', 'new@example.com')
    type(/^Password/, '12345')
    type('Confirm password', '12345')
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByText('Use at least 6 characters for your password.')).toBeInTheDocument()
    expect(screen.getByLabelText(/^Password/)).toHaveFocus()

    type(/^Password/, '123456')
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByText('The two passwords do not match.')).toBeInTheDocument()
    expect(methods.signUpWithEmail).not.toHaveBeenCalled()
  })

  it('creates the account and goes to fromUrl; errors such as a taken email are explained', async () => {
    const pending = deferred()
    const methods = fakeMethods({
      signUpWithEmail: jest
        .fn()
        .mockRejectedValueOnce(firebaseError('auth/email-already-in-use'))
        .mockReturnValueOnce(pending.promise),
    })
    const { router } = renderScreen('signup', methods, { fromUrl: '/publishers/comfy-demo' })
    type('Email', 'new@example.com')
    type(/^Password/, 'secret1')
    type('Confirm password', 'secret1')
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account already uses this email. Log in instead, or reset your password.',
    )

    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByRole('button', { name: 'Creating your account…' })).toBeDisabled()
    await act(async () => pending.resolve())
    expect(methods.signUpWithEmail).toHaveBeenLastCalledWith('new@example.com', 'secret1')
    expect(router.replace).toHaveBeenCalledWith('/publishers/comfy-demo')
    // Still busy while the next page loads.
    expect(screen.getByRole('button', { name: 'Creating your account…' })).toBeDisabled()
  })

  it('speaks the visitor’s language', () => {
    renderScreen('signup', fakeMethods(), { locale: 'ja' })
    fireEvent.click(screen.getByRole('button', { name: '新規登録' }))
    const form = screen.getByRole('form', { name: 'メールアドレスで新規登録' })
    expect(within(form).getByText('メールアドレスを入力してください。')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Google で続行' })).toBeInTheDocument()
  })
})
