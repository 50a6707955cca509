import { ThemeModeScript } from 'flowbite-react'
import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document'
import { publicEnvScript, readPublicEnv } from '@/src/lib/public-env'
import { THEME_STORAGE_KEY } from '@/src/lib/constants'

export default function Document({ locale }: DocumentProps) {
  return (
    <Html lang={locale ?? 'en'}>
      <Head>
        <script dangerouslySetInnerHTML={{ __html: publicEnvScript(readPublicEnv()) }} />
        {/* Dark mode before first paint: the stored choice, else the system's. */}
        <ThemeModeScript localStorageKey={THEME_STORAGE_KEY} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </Head>
      <body className="bg-white text-gray-900 antialiased dark:bg-gray-900 dark:text-gray-100">
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
