// The frame of every Admin Dashboard page: only for admins (signed-out visitors go to login,
// signed-in non-admins see the 404 page), the section navigation, and the page's heading.
// The API refuses every admin call of a non-admin as well (see docs/ARCHITECTURE.md).
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { RequireAuth, PageLoading } from '@/components/auth/RequireAuth'
import { NotFoundContent } from '@/components/common/NotFoundContent'
import { Seo } from '@/components/common/Seo'
import { useGetUser } from '@/src/api/generated/users/users'
import { ADMIN_PATHS, type AdminSection } from '@/src/lib/paths'
import { CONTAINER_CLASS } from '@/components/common/Container'

const SECTIONS: AdminSection[] = [
  'overview',
  'queue',
  'nodes',
  'publishers',
  'customers',
  'addNode',
  'actions',
]

/** Renders `children` only once the signed-in user is known to be an admin. */
export function RequireAdmin({ children }: { children: () => ReactNode }) {
  return <RequireAuth>{(user) => <AdminCheck uid={user.uid}>{children}</AdminCheck>}</RequireAuth>
}

function AdminCheck({ uid, children }: { uid: string; children: () => ReactNode }) {
  const { t } = useTranslation('common')
  const { data: profile, isPending } = useGetUser({ query: { enabled: Boolean(uid) } })
  if (isPending) return <PageLoading label={t('admin.shell.checking')} />
  if (!profile?.isAdmin) return <NotFoundContent />
  return <>{children()}</>
}

export function AdminNav({ current }: { current: AdminSection }) {
  const { t } = useTranslation('common')
  return (
    <nav aria-label={t('admin.shell.navLabel')} className="mb-6 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-gray-200 text-sm font-medium dark:border-gray-700">
        {SECTIONS.map((section) => {
          const active = section === current
          return (
            <li key={section}>
              <Link
                href={ADMIN_PATHS[section]}
                aria-current={active ? 'page' : undefined}
                className={
                  active
                    ? 'inline-block rounded-t-lg border-b-2 border-blue-700 px-3 py-2 text-blue-700 dark:border-blue-300 dark:text-blue-300'
                    : 'inline-block rounded-t-lg border-b-2 border-transparent px-3 py-2 text-gray-700 hover:border-gray-300 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white'
                }
              >
                {t(`admin.shell.${section}`)}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

export interface AdminPageProps {
  section: AdminSection
  /** The page's heading (and title); the section's name when omitted. */
  title?: string
  /** The page's address for its (noindex) metadata. */
  path: string
  children: () => ReactNode
}

export function AdminPage({ section, title, path, children }: AdminPageProps) {
  const { t } = useTranslation('common')
  const heading = title ?? t(`admin.shell.${section}`)
  return (
    <>
      <Seo
        title={`${heading} · ${t('admin.shell.title')}`}
        description={heading}
        path={path}
        noindex
      />
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <RequireAdmin>
          {() => (
            <>
              <AdminNav current={section} />
              <h1 className="mb-6 text-2xl font-bold break-words text-gray-900 dark:text-white">
                {heading}
              </h1>
              {children()}
            </>
          )}
        </RequireAdmin>
      </main>
    </>
  )
}
