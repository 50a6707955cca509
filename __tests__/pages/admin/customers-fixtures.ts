// Shared setup of the Customers page tests: a whole admin page rendered at its address for a
// signed-in user (an admin unless told otherwise), the fake API answering, and customers.
import type { ReactElement } from 'react'
import type { Customer, CustomerEvent, User } from '@/src/api/generated/model'
import type { AuthUser } from '@/src/lib/auth'
import { renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeRoutes } from '../../components/manage/fake-api'

export const ADA: AuthUser = {
  uid: 'u-ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  photoURL: null,
}

const profile = (isAdmin: boolean): User => ({
  id: ADA.uid,
  email: ADA.email ?? undefined,
  name: 'Ada',
  isApproved: true,
  isAdmin,
})

export interface PageRenderOptions {
  /** The route (`/admin/customers/[customerId]`). */
  pathname: string
  /** The address. */
  asPath: string
  query?: Record<string, string>
  routes?: FakeRoutes
  /** The signed-in user is an admin (default true). */
  admin?: boolean
}

/** Renders a page for a signed-in user; the fake API (returned as `api`) answers `routes`. */
export function renderAdminPage(
  ui: ReactElement,
  { pathname, asPath, query = {}, routes = {}, admin = true }: PageRenderOptions,
) {
  const api = fakeApi({ 'GET /users': { status: 200, data: profile(admin) }, ...routes })
  const view = renderWithProviders(ui, {
    auth: { user: ADA },
    router: { pathname, asPath, query },
  })
  return { ...view, api }
}

export const GRACE: Customer = {
  id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  is_admin: false,
  has_fund: true,
  createdAt: '2024-03-01T10:00:00Z',
  updatedAt: '2024-03-02T10:00:00Z',
}

export const LINUS: Customer = {
  id: '0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f70',
  email: 'linus@example.com',
  name: '',
  is_admin: true,
  has_fund: false,
  createdAt: '2024-02-01T10:00:00Z',
}

export function makeEvent(
  id: number,
  event_type: CustomerEvent['event_type'],
  params: CustomerEvent['params'],
  createdAt: string,
): CustomerEvent {
  return {
    id: `e0000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    event_type,
    params,
    createdAt,
  }
}
