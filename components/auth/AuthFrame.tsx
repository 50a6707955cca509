// The frame of the sign-in pages (no page header, seed section 2): the logo linking home, the
// language and dark-mode controls, and the page's card.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import type { ReactNode } from 'react'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { LanguagePicker } from '@/components/common/LanguagePicker'
import { ThemeToggle } from '@/components/common/ThemeToggle'
import { LogoIcon } from '@/components/header/icons'

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <>
      <nav
        aria-label={t('header.nav')}
        className={`${CONTAINER_CLASS} flex items-center justify-between gap-2 pt-6`}
      >
        <Link
          href="/"
          className="flex items-center gap-2 rounded-lg text-lg font-bold text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-white"
        >
          <LogoIcon />
          <span>Comfy Registry</span>
        </Link>
        <div className="flex items-center gap-1">
          <LanguagePicker />
          <ThemeToggle />
        </div>
      </nav>
      <main id="main-content" className={`${CONTAINER_CLASS} py-8`}>
        <div className="mx-auto max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-700 dark:bg-gray-800">
          <h1 className="text-2xl font-bold text-gray-900 dark:text-white">{title}</h1>
          {children}
        </div>
      </main>
    </>
  )
}
