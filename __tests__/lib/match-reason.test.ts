// Why a search hit matched (src/lib/match-reason.ts): nothing when the card already shows it (the
// name or id has the words, or ComfyUI nodes matched), else the tag, publisher, description, or
// a similar spelling of the name.
import type { Node } from '@/src/api/generated/model'
import { matchReason } from '@/src/lib/match-reason'

const node: Node = {
  id: 'comfyui-frame-tools',
  name: 'Frame Tools',
  description: 'Interpolates video frames with optical flow. 高品質な補間。',
  tags: ['video', 'interpolation'],
  status: 'NodeStatusActive',
  publisher: { id: 'kijai-labs', name: 'Kijai Labs' },
}

describe('matchReason', () => {
  it('says nothing when the name or id shows the words', () => {
    expect(matchReason(node, 'frame')).toBeUndefined()
    expect(matchReason(node, 'FRAME tools')).toBeUndefined()
    expect(matchReason(node, 'comfyui-frame')).toBeUndefined()
    expect(matchReason(node, '')).toBeUndefined()
  })

  it('says nothing when ComfyUI nodes matched (the card counts them)', () => {
    expect(matchReason({ ...node, comfy_nodes_matched: 2 }, 'RIFE')).toBeUndefined()
  })

  it('names the tag, then the publisher, then the description', () => {
    expect(matchReason(node, 'interpolation')).toEqual({ kind: 'tag', tag: 'interpolation' })
    expect(matchReason(node, 'kijai')).toEqual({ kind: 'publisher', publisher: 'Kijai Labs' })
    expect(matchReason(node, 'optical')).toEqual({ kind: 'description' })
    expect(matchReason(node, '補間')).toEqual({ kind: 'description' })
  })

  it('knows a stemmed description word ("interpolating" for "Interpolates")', () => {
    expect(matchReason({ ...node, tags: [] }, 'interpolating')).toEqual({ kind: 'description' })
  })

  it('falls back to a similar spelling of the name (a typo)', () => {
    expect(matchReason(node, 'fraem')).toEqual({ kind: 'similar' })
  })
})
