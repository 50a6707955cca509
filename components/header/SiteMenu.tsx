// The header's Menu below the md breakpoint (disclosure pattern): a button with aria-expanded
// that shows, under the header row, Login and Signup, Documentation, the community chat, dark
// mode and the seven languages. Escape closes it and returns focus to the button; so do a click
// outside (without moving focus), choosing a language and leaving the page.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { CONTAINER_CLASS } from '@/components/common/Container'
import { useLanguageChoice } from '@/components/common/LanguagePicker'
import { ThemeToggle } from '@/components/common/ThemeToggle'
import { LANGUAGES } from '@/src/lib/constants'
import { AuthLinks } from './AuthLinks'
import { BookIcon, ChatIcon, CloseIcon, MenuIcon } from './icons'
import { ICON_BUTTON_CLASS } from './MenuButton'

const ROW_CLASS =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-gray-100 dark:hover:bg-gray-800 dark:focus-visible:outline-blue-400'

export interface SiteMenuProps {
  docsUrl: string
  /** The current path for Login and Signup; null when they are not shown (signed in, loading). */
  fromUrl: string | null
}

export function SiteMenu({ docsUrl, fromUrl }: SiteMenuProps) {
  const { t } = useTranslation()
  const { asPath } = useRouter()
  const { current, choose } = useLanguageChoice()
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const languagesId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)

  // Another page (or the same page in another language) closes the menu.
  const [shownFor, setShownFor] = useState(asPath)
  if (shownFor !== asPath) {
    setShownFor(asPath)
    setOpen(false)
  }

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
      buttonRef.current?.focus()
    }
  }

  return (
    <div ref={rootRef} onKeyDown={onKeyDown} className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-label={t('header.menu')}
        aria-expanded={open}
        aria-controls={panelId}
        className={ICON_BUTTON_CLASS}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? <CloseIcon /> : <MenuIcon />}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-full z-40 border-b border-gray-200 bg-white shadow-lg dark:border-gray-700 dark:bg-gray-900"
      >
        {open && (
          <div className={`${CONTAINER_CLASS} flex flex-col gap-3 py-3`}>
            {fromUrl !== null && (
              <div className="grid grid-cols-2 gap-2">
                <AuthLinks
                  fromUrl={fromUrl}
                  className="border border-gray-300 dark:border-gray-600"
                />
              </div>
            )}
            <ul className="flex flex-col">
              <li>
                <a href={docsUrl} className={`${ROW_CLASS} font-medium`}>
                  <BookIcon />
                  {t('header.documentation')}
                </a>
              </li>
              <li>
                {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a redirect to the chat (next.config.js), not a page */}
                <a href="/discord" className={`${ROW_CLASS} font-medium`}>
                  <ChatIcon />
                  {t('header.discord')}
                </a>
              </li>
              <li>
                <ThemeToggle withLabel className={`${ROW_CLASS} font-medium`} />
              </li>
            </ul>
            <div
              role="group"
              aria-labelledby={languagesId}
              className="border-t border-gray-200 pt-3 dark:border-gray-700"
            >
              <p
                id={languagesId}
                className="px-3 text-xs font-semibold text-gray-600 dark:text-gray-400"
              >
                {t('language.label')}
              </p>
              <ul className="mt-1 grid grid-cols-2 gap-1">
                {LANGUAGES.map((language) => {
                  const isCurrent = language.code === current
                  return (
                    <li key={language.code}>
                      <button
                        type="button"
                        lang={language.code}
                        aria-current={isCurrent ? 'true' : undefined}
                        className={`${ROW_CLASS} ${isCurrent ? 'font-bold' : 'font-normal'}`}
                        onClick={() => {
                          setOpen(false)
                          choose(language.code)
                        }}
                      >
                        {language.nativeName}
                      </button>
                    </li>
                  )
                })}
              </ul>
            </div>
          </div>
        )}
      </div>
    </div>
  )
}
