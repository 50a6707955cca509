// Shared setup of the admin component tests: a section rendered at its address with the fake API
// answering, and audit-log actions.
import type { ReactElement } from 'react'
import type { AdminAction } from '@/src/api/generated/model'
import { renderWithProviders } from '../../test-utils'
import { fakeApi, type FakeRoutes } from '../manage/fake-api'

export interface AdminRenderOptions {
  /** The page's address (its pathname and asPath). */
  path: string
  query?: Record<string, string>
  routes?: FakeRoutes
}

/** Renders `ui` at `path` with `query`; the fake API (returned as `api`) answers `routes`. */
export function renderAdmin(
  ui: ReactElement,
  { path, query = {}, routes = {} }: AdminRenderOptions,
) {
  const api = fakeApi(routes)
  const view = renderWithProviders(ui, { router: { pathname: path, asPath: path, query } })
  return { ...view, api }
}

/** An audit-log action: an admin's ban of comfyui-foo 1.2.0, unless `overrides` say otherwise. */
export function makeAction(overrides: Partial<AdminAction> = {}): AdminAction {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    actor_id: 'u-ada',
    actor_email: 'ada@example.com',
    action: 'version.status',
    subject_type: 'node_version',
    subject_id: '11111111-0000-4000-8000-000000000001',
    subject_label: 'comfyui-foo@1.2.0',
    from_value: 'NodeVersionStatusPending',
    to_value: 'NodeVersionStatusBanned',
    reason: 'Steals tokens',
    created_at: '2026-11-02T09:30:00.000Z',
    ...overrides,
  }
}
