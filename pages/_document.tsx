import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document'
import { PUBLIC_ENV_ELEMENT_ID, publicEnvJson, readPublicEnv } from '@/src/lib/public-env'
import { THEME_SCRIPT } from '@/security-headers.config'

export default function Document({ locale }: DocumentProps) {
  return (
    <Html lang={locale ?? 'en'}>
      <Head>
        {/* Data, not a script: the CSP allows no inline script but the hashed theme one. */}
        <script
          id={PUBLIC_ENV_ELEMENT_ID}
          type="application/json"
          dangerouslySetInnerHTML={{ __html: publicEnvJson(readPublicEnv()) }}
        />
        {/* Dark mode before first paint; its hash is in the CSP (security-headers.config.js). */}
        <script
          data-flowbite-theme-mode-script
          dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }}
        />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </Head>
      <body className="bg-white text-gray-900 antialiased dark:bg-gray-900 dark:text-gray-100">
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
