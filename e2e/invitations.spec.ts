// Joining a publisher: its owner invites an email address from the settings page; the person
// signed in with that (verified) address finds the invitation on Your Nodes, accepts it and the
// publisher is theirs to see. Someone signed in with an unverified address is told why they see
// none. Navigation by links, as people do; axe on the new parts.
import { expect, test, type Page } from './test'
import { DEMO_PUBLISHER, DEMO_PUBLISHER_ACCOUNT } from '../server/seed/accounts'
import { createAccount, expectNoAxeViolations, signIn, verifyEmail } from './helpers'

/** Signs in on the login page, which then goes on to Your Nodes. */
async function signInToYourNodes(page: Page, email: string, password: string) {
  await page.goto(`/auth/login?fromUrl=${encodeURIComponent('/nodes')}`)
  await signIn(page, email, password)
  await expect(page).toHaveURL(/\/nodes$/)
}

test('an owner invites someone, who accepts on Your Nodes and joins', async ({
  page,
  browser,
  request,
}) => {
  const stamp = Date.now().toString(36)
  const email = `invitee-${stamp}@example.com`
  const password = 'invitee-password-1'
  const account = await createAccount(request, email, password)
  await verifyEmail(request, account.localId)

  // The owner: Your Nodes → Settings → invite.
  await signInToYourNodes(page, DEMO_PUBLISHER_ACCOUNT.email, DEMO_PUBLISHER_ACCOUNT.password)
  await page.getByRole('link', { name: `Settings of ${DEMO_PUBLISHER.name}` }).click()
  await page.getByRole('textbox', { name: 'Email address' }).fill(email)
  await page.getByRole('button', { name: 'Invite', exact: true }).click()
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible()
  await expect(page.getByRole('button', { name: `Cancel invitation for ${email}` })).toBeVisible()
  await expectNoAxeViolations(page)

  // The invitee, in another browser.
  const invitee = await browser.newContext()
  const inviteePage = await invitee.newPage()
  await signInToYourNodes(inviteePage, email, password)
  const accept = inviteePage.getByRole('button', {
    name: `Accept invitation to ${DEMO_PUBLISHER.name}`,
  })
  await expect(accept).toBeVisible()
  await expectNoAxeViolations(inviteePage)
  await accept.click()
  await expect(accept).toHaveCount(0)
  // A member now: the publisher is listed with its nodes (members cannot edit: no Settings).
  await expect(inviteePage.getByRole('heading', { name: DEMO_PUBLISHER.name })).toBeVisible()
  await invitee.close()

  // The owner's member list shows them, without the invitation.
  await page.reload()
  await expect(page.getByText(email).first()).toBeVisible()
  await expect(page.getByRole('button', { name: `Cancel invitation for ${email}` })).toHaveCount(0)
})

test('with an unverified address, Your Nodes explains and offers the verification email', async ({
  page,
  request,
}) => {
  const email = `unverified-${Date.now().toString(36)}@example.com`
  await createAccount(request, email, 'unverified-password-1')
  await signInToYourNodes(page, email, 'unverified-password-1')
  await expect(page.getByText(/matched to verified email addresses/)).toBeVisible()
  await page.getByRole('button', { name: 'Send verification email' }).click()
  await expect(
    page.getByText(`A verification email is on its way to ${email}.`, { exact: false }),
  ).toBeVisible()
})
