import { splitTagged } from '@/src/lib/tagged-text'

describe('splitTagged', () => {
  it('splits a text around its tagged part', () => {
    expect(splitTagged('by <publisher>Acme</publisher>', 'publisher')).toEqual(['by ', 'Acme', ''])
    expect(splitTagged('公開者: <publisher>A</publisher> です', 'publisher')).toEqual([
      '公開者: ',
      'A',
      ' です',
    ])
  })

  it('keeps a value that contains the tag’s own text inside the part', () => {
    expect(splitTagged('by <publisher></publisher><publisher>x</publisher>', 'publisher')).toEqual([
      'by ',
      '</publisher><publisher>x',
      '',
    ])
  })

  it('gives the whole text when the tag is missing', () => {
    expect(splitTagged('by Acme', 'publisher')).toEqual(['by Acme', '', ''])
    expect(splitTagged('</publisher> <publisher>', 'publisher')).toEqual([
      '</publisher> <publisher>',
      '',
      '',
    ])
  })
})
