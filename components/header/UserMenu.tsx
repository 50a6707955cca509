// The signed-in user's menu (seed section 2): avatar (photo, else first initial, else "U"), the
// display name or email; inside, a header with name and email, Your Nodes, Your account (credits
// and API keys), Admin Dashboard for admins only, a divider, and Logout.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { useGetUser } from '@/src/api/generated/users/users'
import { useLogout, type AuthUser } from '@/src/lib/auth'
import { ACCOUNT_PATH } from '@/src/lib/paths'
import { ICON_BUTTON_CLASS, MENU_ITEM_CLASS, MenuButton } from './MenuButton'

/** The avatar's letter: the first initial of the display name or email, else "U". */
export function avatarInitial(user: Pick<AuthUser, 'displayName' | 'email'>): string {
  const source = (user.displayName || user.email || '').trim()
  return source ? source[0].toUpperCase() : 'U'
}

export function Avatar({ user }: { user: AuthUser }) {
  if (user.photoURL) {
    return (
      // A remote profile photo of any host: next/image would need every host configured.
      // eslint-disable-next-line @next/next/no-img-element
      <img
        src={user.photoURL}
        alt=""
        width={32}
        height={32}
        referrerPolicy="no-referrer"
        className="h-8 w-8 rounded-full object-cover"
        data-testid="avatar-photo"
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initial"
      className="inline-flex h-8 w-8 items-center justify-center rounded-full bg-blue-700 text-sm font-semibold text-white"
    >
      {avatarInitial(user)}
    </span>
  )
}

export function UserMenu({ user }: { user: AuthUser }) {
  const { t } = useTranslation()
  const logOut = useLogout()
  const { data: profile } = useGetUser({ query: { enabled: Boolean(user.uid) } })
  const shownName = user.displayName || user.email || ''

  return (
    <MenuButton
      label={t('userMenu.label')}
      buttonClassName={ICON_BUTTON_CLASS}
      button={
        <>
          <Avatar user={user} />
          {/* The button's name: the visible name (read out on small screens too). */}
          <span className="block max-w-40 truncate text-sm max-md:sr-only" title={shownName}>
            {shownName}
          </span>
        </>
      }
    >
      <>
        <div className="border-b border-gray-200 px-4 py-3 text-sm dark:border-gray-600">
          {/* Long names and emails end in an ellipsis; the title and the text keep them whole. */}
          {user.displayName && (
            <p
              className="truncate font-semibold text-gray-900 dark:text-white"
              title={user.displayName}
            >
              {user.displayName}
            </p>
          )}
          {user.email && (
            <p className="truncate text-gray-600 dark:text-gray-300" title={user.email}>
              {user.email}
            </p>
          )}
        </div>
        <Link href="/nodes" role="menuitem" className={MENU_ITEM_CLASS}>
          {t('userMenu.yourNodes')}
        </Link>
        <Link href={ACCOUNT_PATH} role="menuitem" className={MENU_ITEM_CLASS}>
          {t('userMenu.account')}
        </Link>
        {profile?.isAdmin && (
          <Link href="/admin" role="menuitem" className={MENU_ITEM_CLASS}>
            {t('userMenu.admin')}
          </Link>
        )}
        <div role="separator" className="my-1 border-t border-gray-200 dark:border-gray-600" />
        <button
          type="button"
          role="menuitem"
          className={MENU_ITEM_CLASS}
          onClick={() => void logOut()}
        >
          {t('userMenu.logout')}
        </button>
      </>
    </MenuButton>
  )
}
