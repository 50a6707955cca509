// The page footer: where to learn, publish, talk, the API contract, and ComfyUI's CI results.
import Link from 'next/link'
import { useTranslation } from 'next-i18next/pages'
import { Container } from '@/components/common/Container'
import { PUBLISHING_DOCS_URL } from '@/src/lib/constants'
import { publicEnv } from '@/src/lib/public-env'
import { docsUrlFor } from '@/components/header/Header'
import { useRouter } from 'next/router'

/** Styled in styles/globals.css (.footer-link): every page carries five of them. */
const LINK_CLASS = 'footer-link'

export function Footer() {
  const { t } = useTranslation()
  const { locale } = useRouter()
  const links = [
    { href: docsUrlFor(locale), label: t('footer.documentation') },
    { href: PUBLISHING_DOCS_URL, label: t('footer.publishing') },
    { href: '/discord', label: t('footer.discord') },
    { href: `${publicEnv().apiUrl}/openapi`, label: t('footer.api') },
  ]
  return (
    <footer className="mt-12 border-t border-gray-200 bg-gray-50 dark:border-gray-700 dark:bg-gray-950">
      <Container className="flex flex-col gap-4 py-8 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="text-gray-700 dark:text-gray-300">
          <span className="font-semibold text-gray-900 dark:text-white">Comfy Registry</span>
          {' · '}
          {t('footer.tagline')}
        </p>
        <nav aria-label={t('footer.nav')}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href} className={LINK_CLASS}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              {/* This site's own page, reached client-side. */}
              <Link href="/ci" prefetch={false} className={LINK_CLASS}>
                {t('footer.ci')}
              </Link>
            </li>
          </ul>
        </nav>
      </Container>
    </footer>
  )
}
