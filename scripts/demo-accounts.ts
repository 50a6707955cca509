// Creates the demo accounts in the Auth emulator (once; the emulator keeps them across restarts).
import { getApps, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { DEMO_ADMIN_ACCOUNT, DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import { DEMO_FIREBASE_PROJECT_ID } from './ports'

interface DemoAccount {
  email: string
  password: string
  name: string
}

async function ensureAccount(account: DemoAccount): Promise<string> {
  if (!process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error(
      'Demo accounts are only created in the Auth emulator (FIREBASE_AUTH_EMULATOR_HOST).',
    )
  }
  const app = getApps()[0] ?? initializeApp({ projectId: DEMO_FIREBASE_PROJECT_ID })
  const auth = getAuth(app)
  try {
    return (await auth.getUserByEmail(account.email)).uid
  } catch {
    try {
      const user = await auth.createUser({
        email: account.email,
        password: account.password,
        displayName: account.name,
        emailVerified: true,
      })
      return user.uid
    } catch (error) {
      // The emulator finished importing its saved accounts between the two calls.
      const code = (error as { code?: unknown }).code
      if (code !== 'auth/email-already-exists') throw error
      return (await auth.getUserByEmail(account.email)).uid
    }
  }
}

export async function ensureDemoAccounts() {
  const [publisherUid, adminUid] = await Promise.all([
    ensureAccount(DEMO_PUBLISHER_ACCOUNT),
    ensureAccount(DEMO_ADMIN_ACCOUNT),
  ])
  return {
    publisher: { ...DEMO_PUBLISHER_ACCOUNT, uid: publisherUid },
    admin: { ...DEMO_ADMIN_ACCOUNT, uid: adminUid },
  }
}
