// Dark mode: follows the system until the visitor toggles it; the choice is stored (flowbite's
// theme-mode key) and applied before first paint by ThemeModeScript in _document.
import { useThemeMode } from 'flowbite-react'
import { useTranslation } from 'next-i18next/pages'
import { useSyncExternalStore } from 'react'
import { ICON_BUTTON_CLASS } from '@/components/header/MenuButton'
import { MoonIcon, SunIcon } from '@/components/header/icons'

const subscribeNothing = () => () => {}

export function ThemeToggle({
  withLabel = false,
  className = ICON_BUTTON_CLASS,
}: {
  /** Shows the action's name next to the icon (the header's small-screen menu). */
  withLabel?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  const { computedMode, toggleMode } = useThemeMode()
  // The server cannot know the mode: the label follows it once the page runs.
  const mounted = useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )
  const isDark = mounted && computedMode === 'dark'
  const label = isDark ? t('theme.toLight') : t('theme.toDark')

  return (
    <button
      type="button"
      className={className}
      aria-label={withLabel ? undefined : label}
      onClick={toggleMode}
    >
      {/* The icon follows the <html class="dark"> set before paint, so it never flashes. */}
      <MoonIcon className="dark:hidden" />
      <SunIcon className="hidden dark:block" />
      {withLabel && <span>{label}</span>}
    </button>
  )
}
