import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../config'
import { startApi } from '../main'
import { emulatorSetupProblem, isLoopback } from './emulator-guard'

describe('emulator mode stays on loopback', () => {
  const emulatorHost = '127.0.0.1:9099'

  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (host) => expect(isLoopback(host)).toBe(true),
  )

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'registry.example.com', '::ffff:10.0.0.1'])(
    '%s is not',
    (host) => expect(isLoopback(host)).toBe(false),
  )

  it('refuses public addresses and production with the emulator', () => {
    expect(
      emulatorSetupProblem({ emulatorHost, nodeEnv: undefined, hosts: ['localhost'] }),
    ).toBeNull()
    expect(
      emulatorSetupProblem({ emulatorHost, nodeEnv: undefined, hosts: ['127.0.0.1', '0.0.0.0'] }),
    ).toMatch(/loopback only.*0\.0\.0\.0/)
    expect(
      emulatorSetupProblem({ emulatorHost, nodeEnv: 'production', hosts: ['localhost'] }),
    ).toMatch(/NODE_ENV=production/)
  })

  it('lets a real Firebase project listen anywhere', () => {
    expect(
      emulatorSetupProblem({ emulatorHost: undefined, nodeEnv: 'production', hosts: ['0.0.0.0'] }),
    ).toBeNull()
  })

  it('startApi refuses to listen on 0.0.0.0 with the emulator, before opening anything', async () => {
    // The test run itself uses the emulator (FIREBASE_AUTH_EMULATOR_HOST is set).
    expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBeTruthy()
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-guard-'))
    try {
      const config = loadConfig({ API_HOST: '0.0.0.0', API_PORT: '0', DATA_DIR: dataDir })
      await expect(startApi({ config })).rejects.toThrow(/loopback only/)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
