// The language picker (seed section 1): the seven languages under their native names, the
// current one in bold; choosing one replaces the address with the new locale, same path,
// query and hash, and stores the preference.
import { useRouter } from 'next/router'
import { useTranslation } from 'next-i18next/pages'
import { GlobeIcon } from '@/components/header/icons'
import { ICON_BUTTON_CLASS, MENU_ITEM_CLASS, MenuButton } from '@/components/header/MenuButton'
import { LANGUAGES } from '@/src/lib/constants'
import { languageOfTag, switchLanguage, type LanguageCode } from '@/src/lib/i18n'

/** The current language and a way to choose another (same path, query and hash). */
export function useLanguageChoice() {
  const router = useRouter()
  const current = languageOfTag(router.locale)
  const currentName = LANGUAGES.find((language) => language.code === current)?.nativeName ?? ''
  const choose = (code: LanguageCode) => {
    if (code !== current) void switchLanguage(router, code)
  }
  return { current, currentName, choose }
}

export function LanguagePicker() {
  const { t } = useTranslation()
  const { current, currentName, choose } = useLanguageChoice()

  return (
    <MenuButton
      label={t('language.label')}
      buttonLabel={t('language.choose', { language: currentName })}
      buttonClassName={ICON_BUTTON_CLASS}
      button={
        <>
          <GlobeIcon />
          <span className="hidden text-sm lg:inline" lang={current}>
            {currentName}
          </span>
        </>
      }
    >
      {LANGUAGES.map((language) => {
        const isCurrent = language.code === current
        return (
          <button
            key={language.code}
            type="button"
            role="menuitem"
            lang={language.code}
            aria-current={isCurrent ? 'true' : undefined}
            className={`${MENU_ITEM_CLASS} ${isCurrent ? 'font-bold' : 'font-normal'}`}
            onClick={() => choose(language.code)}
          >
            {language.nativeName}
          </button>
        )
      })}
    </MenuButton>
  )
}
