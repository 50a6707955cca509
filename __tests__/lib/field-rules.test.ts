import {
  FALLBACK_IMAGE,
  imageSource,
  isHttpUrl,
  isImageReference,
  isSitePath,
  isSupportContact,
} from '@/src/lib/field-rules'

describe('field rules shared by the API and the forms', () => {
  it.each([
    ['/icons/node-0.svg', true],
    ['/icons/node 1.svg', true],
    ['https://cdn.example.com/icon.png', true],
    ['http://example.com/i.png', true],
    // Browsers read these as other hosts.
    ['//evil.example/x.png', false],
    ['/\\evil.example/x.png', false],
    ['/icons/\\x.png', false],
    ['/icons/\nx.png', false],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
    ['icons/node.svg', false],
    ['ftp://example.com/i.png', false],
    ['', false],
  ])('image reference %j → %s', (value, expected) => {
    expect(isImageReference(value)).toBe(expected)
  })

  it('a site path stays on this site; an http URL needs a host', () => {
    expect(isSitePath('/a/../b.svg')).toBe(true)
    expect(isSitePath('https://example.com/x')).toBe(false)
    expect(isHttpUrl('https://example.com')).toBe(true)
    expect(isHttpUrl('https://')).toBe(false)
    expect(isHttpUrl('/relative')).toBe(false)
  })

  it.each([
    ['help@example.com', true],
    ['mailto:help@example.com', true],
    ['https://github.com/x/y/issues', true],
    ['not an address', false],
    ['help@localhost', false],
  ])('support contact %j → %s', (value, expected) => {
    expect(isSupportContact(value)).toBe(expected)
  })

  it('shows the fallback image for anything that is not an image reference', () => {
    expect(imageSource('/icons/node-3.svg')).toBe('/icons/node-3.svg')
    expect(imageSource('/\\evil.example/x.png')).toBe(FALLBACK_IMAGE)
    expect(imageSource(undefined)).toBe(FALLBACK_IMAGE)
  })
})
