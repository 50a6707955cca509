// Mixpanel is a third-party network service: its library is replaced by a recorder here.
import mixpanel from 'mixpanel-browser'
import { identify, resetAnalytics, setProfile, track } from '@/src/lib/analytics'
import { readPublicEnv } from '@/src/lib/public-env'

jest.mock('mixpanel-browser', () => ({
  __esModule: true,
  default: { init: jest.fn(), track: jest.fn(), identify: jest.fn(), people: { set: jest.fn() } },
}))

const mocked = jest.mocked(mixpanel)

function pageEnv(environment: string, mixpanelToken?: string) {
  window.__PUBLIC_ENV__ = { ...readPublicEnv({} as NodeJS.ProcessEnv), environment, mixpanelToken }
}

describe('analytics (seed section 1)', () => {
  let log: jest.SpyInstance
  beforeEach(() => {
    jest.clearAllMocks()
    resetAnalytics()
    log = jest.spyOn(console, 'log').mockImplementation(() => {})
  })
  afterEach(() => {
    log.mockRestore()
    delete window.__PUBLIC_ENV__
  })

  it('sends events, identification and profile to Mixpanel when the environment is production', async () => {
    pageEnv('production', 'mp-token')
    await track('Install copied', { nodeId: 'comfy-ab' })
    await identify('uid-1')
    await setProfile({ $email: 'a@example.com', $name: 'Ada' })
    expect(mocked.init).toHaveBeenCalledTimes(1)
    expect(mocked.init).toHaveBeenCalledWith('mp-token', expect.any(Object))
    expect(mocked.track).toHaveBeenCalledWith('Install copied', { nodeId: 'comfy-ab' })
    expect(mocked.identify).toHaveBeenCalledWith('uid-1')
    expect(mocked.people.set).toHaveBeenCalledWith({ $email: 'a@example.com', $name: 'Ada' })
    expect(log).not.toHaveBeenCalled()
  })

  it.each(['development', 'staging', 'Production', ''])(
    'only logs to the console when the environment is %p',
    async (environment) => {
      pageEnv(environment, 'mp-token')
      await track('Install copied', { nodeId: 'comfy-ab' })
      await identify('uid-1')
      await setProfile({ $email: 'a@example.com' })
      expect(mocked.init).not.toHaveBeenCalled()
      expect(mocked.track).not.toHaveBeenCalled()
      expect(mocked.identify).not.toHaveBeenCalled()
      expect(mocked.people.set).not.toHaveBeenCalled()
      expect(log).toHaveBeenCalledWith('[analytics] track', 'Install copied', {
        nodeId: 'comfy-ab',
      })
      expect(log).toHaveBeenCalledWith('[analytics] identify', 'uid-1')
      expect(log).toHaveBeenCalledWith('[analytics] profile', { $email: 'a@example.com' })
    },
  )
})
