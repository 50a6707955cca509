import { isNodeId, isPublisherId } from '@/src/lib/contract-ids'

// The contract's NodeId and PublisherId (openapi.yml), as the pages check them before asking.
describe('isPublisherId', () => {
  it.each(['acme', 'a', 'felix-tanaka', 'a1-b2', 'x'.repeat(100)])('accepts %j', (id) => {
    expect(isPublisherId(id)).toBe(true)
  })

  it.each([
    '',
    'UPPER',
    'Felix-Tanaka',
    '1acme',
    '-acme',
    'a_b',
    'a.b',
    'a b',
    '\u0000',
    'x'.repeat(101),
  ])('refuses %j', (id) => expect(isPublisherId(id)).toBe(false))
})

describe('isNodeId', () => {
  it.each(['demo', 'ComfyUI-Demo_Upscaler.v2', 'a', '9', 'x'.repeat(100)])('accepts %j', (id) => {
    expect(isNodeId(id)).toBe(true)
  })

  it.each(['', '\u0000', '-demo', 'demo-', '.demo', 'a/b', 'a b', 'ä', 'x'.repeat(101)])(
    'refuses %j',
    (id) => expect(isNodeId(id)).toBe(false),
  )
})
