import { AuthScreen } from '@/components/auth/AuthScreen'
import { translationsOnly } from '@/src/lib/page-props'

export default function SignupPage() {
  return <AuthScreen mode="signup" />
}
// Loads Firebase even for a first-time visitor (see src/lib/auth.tsx).
SignupPage.requiresAuth = true

export const getServerSideProps = translationsOnly
