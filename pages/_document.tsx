import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document'
import { publicEnvScript, readPublicEnv } from '@/src/lib/public-env'

export default function Document({ locale }: DocumentProps) {
  return (
    <Html lang={locale ?? 'en'}>
      <Head>
        <script dangerouslySetInnerHTML={{ __html: publicEnvScript(readPublicEnv()) }} />
      </Head>
      <body className="bg-white text-gray-900 antialiased dark:bg-gray-900 dark:text-gray-100">
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
