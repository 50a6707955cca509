// Site-wide adjustments of flowbite-react's themes, applied by the ThemeProvider in
// components/manage/Dialog.tsx (every dialog of the site is one).
import { createTheme } from 'flowbite-react'
import type { CustomFlowbiteTheme } from 'flowbite-react/types'

export const SITE_THEME = createTheme<CustomFlowbiteTheme>({
  modal: {
    header: {
      // flowbite's bare `border-b` takes the text colour under Tailwind 4 (a dark, heavy rule):
      // a light hairline instead, in both modes.
      base: 'border-b border-gray-200 px-6 py-4 dark:border-gray-600',
      title: 'text-lg font-semibold text-gray-900 dark:text-white',
    },
  },
})
