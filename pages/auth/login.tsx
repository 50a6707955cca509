import { AuthScreen } from '@/components/auth/AuthScreen'
import { translationsOnly } from '@/src/lib/page-props'

export default function LoginPage() {
  return <AuthScreen mode="login" />
}
// Loads Firebase even for a first-time visitor (see src/lib/auth.tsx).
LoginPage.requiresAuth = true

export const getServerSideProps = translationsOnly
