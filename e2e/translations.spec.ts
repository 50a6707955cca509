// Every page shows translated text however it is reached. Public pages leave the signed-in
// texts out of their HTML, so this journey moves the way people do, by clicking links from the
// home page (client-side navigation, back included), to every signed-in page, in English and in
// Japanese, and fails on any raw translation key on screen (e.g. `auth.signup.title`).
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from './test'
import { DEMO_PUBLISHER, DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import { signIn } from './helpers'

type Texts = Record<string, Record<string, unknown>>

function locale(language: string): Texts {
  const file = path.join(__dirname, '..', 'public', 'locales', language, 'common.json')
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Texts
}

/** A dotted key under one of the real top-level sections, e.g. `manage.yourNodes.title`. */
const RAW_KEY = new RegExp(
  `\\b(?:${Object.keys(locale('en')).join('|')})\\.[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_]+)*\\b`,
)

async function expectNoRawKeys(page: Page, where: string) {
  // Wait for the page's own content, then read everything on screen.
  await expect(page.locator('main, [role="main"], h1').first()).toBeVisible()
  const text = await page.locator('body').innerText()
  expect({ where, rawKey: RAW_KEY.exec(text)?.[0] ?? null }).toEqual({ where, rawKey: null })
}

for (const language of ['en', 'ja']) {
  test(`${language}: signed-in pages reached by links show their texts, never keys`, async ({
    page,
  }) => {
    test.setTimeout(90_000)
    const texts = locale(language)
    const text = (section: string, key: string) => String(texts[section][key])
    const yourNodes = texts.manage.yourNodes as Record<string, string>
    const prefix = language === 'en' ? '' : `/${language}`

    await page.goto(`${prefix}/`)
    await expectNoRawKeys(page, 'home')
    const banner = page.getByRole('banner')

    await banner.getByRole('link', { name: text('header', 'signup') }).click()
    await expect(page).toHaveURL(/\/auth\/signup/)
    await expectNoRawKeys(page, 'signup')

    await page.goBack()
    await expect(banner.getByRole('link', { name: text('header', 'login') })).toBeVisible()
    await expectNoRawKeys(page, 'home after back')
    await banner.getByRole('link', { name: text('header', 'login') }).click()
    await expect(page).toHaveURL(/\/auth\/login/)
    await expectNoRawKeys(page, 'login')

    // Signed in, the login page goes on to fromUrl: the home page.
    await signIn(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password)
    const menuButton = banner.getByRole('button', { name: DEMO_PUBLISHER_ACCOUNT.name })
    await expect(menuButton).toBeVisible()

    await menuButton.click()
    await page.getByRole('menuitem', { name: text('userMenu', 'yourNodes') }).click()
    await expect(page).toHaveURL(/\/nodes$/)
    const settings = page.getByRole('link', {
      name: yourNodes.settingsOf.replace('{{name}}', DEMO_PUBLISHER.name),
    })
    await expect(settings).toBeVisible()
    await expectNoRawKeys(page, 'your nodes')

    await settings.click()
    await expect(page).toHaveURL(new RegExp(`/publishers/${DEMO_PUBLISHER.id}/settings$`))
    await expectNoRawKeys(page, 'publisher settings')

    await page.goBack()
    await page.getByRole('link', { name: yourNodes.createPublisher }).first().click()
    await expect(page).toHaveURL(/\/publishers\/create$/)
    await expectNoRawKeys(page, 'create publisher')

    // The logout screen has no link to it; the router takes us there as a link would.
    await page.evaluate(() => {
      const next = (window as unknown as { next: { router: { push(url: string): void } } }).next
      next.router.push('/auth/logout')
    })
    await expect(page).toHaveURL(/\/auth\/logout$/)
    await expectNoRawKeys(page, 'logout')
  })
}
