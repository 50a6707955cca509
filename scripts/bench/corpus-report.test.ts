// The pure part of `npm run bench:corpus`, on look-alike packs and maps written for this test.
import {
  UsageError,
  countByRule,
  formatRuleCounts,
  formatTable,
  matchRepository,
  namesMappedInSources,
  median,
  normaliseRepositoryUrl,
  overallScore,
  parseCorpusArgs,
  parseExpectations,
  parseToml,
  percent,
  percentile,
  readPyproject,
  repositoryFromSidecar,
  repositoryFromZipName,
  score,
} from './corpus-report'

describe('parseCorpusArgs', () => {
  it('reads the folder, --expect (both spellings) and --json', () => {
    expect(parseCorpusArgs(['/tmp/packs'])).toEqual({ dir: '/tmp/packs', json: false })
    expect(parseCorpusArgs(['--expect', 'map.json', '/tmp/packs', '--json'])).toEqual({
      dir: '/tmp/packs',
      expect: 'map.json',
      json: true,
    })
    expect(parseCorpusArgs(['/tmp/packs', '--expect=map.json']).expect).toBe('map.json')
  })

  it.each([
    [[], /folder of zips \(DIR\) is missing/],
    [['a', 'b'], /One folder only: got 'a' and 'b'/],
    [['a', '--expect'], /--expect needs the path/],
    [['a', '--expect', '--json'], /--expect needs the path/],
    [['a', '--expect=x', '--expect=y'], /--expect is given twice/],
    [['a', '--verbose'], /Unknown option '--verbose'/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseCorpusArgs(argv)).toThrow(UsageError)
    expect(() => parseCorpusArgs(argv)).toThrow(message)
  })
})

describe('repositories', () => {
  it('normalises the spellings of one repository to one key', () => {
    const key = 'github.com/lookalike/comfy-pack'
    for (const url of [
      'https://github.com/lookalike/comfy-pack',
      'https://github.com/LookAlike/Comfy-Pack/',
      'http://www.github.com/lookalike/comfy-pack.git',
      'git@github.com:lookalike/comfy-pack.git',
      'https://github.com/lookalike/comfy-pack?tab=readme#top',
    ]) {
      expect(normaliseRepositoryUrl(url)).toBe(key)
    }
  })

  it('reads owner__repo.zip names, splitting at the first double underscore', () => {
    expect(repositoryFromZipName('lookalike__Comfy_Pack__v2.zip')).toBe(
      'https://github.com/lookalike/Comfy_Pack__v2',
    )
    expect(repositoryFromZipName('pack-1.0.0.zip')).toBeNull()
    expect(repositoryFromZipName('lookalike__pack.tar.gz')).toBeNull()
  })

  it('reads a sidecar, and ignores one that is not {"repository": "<url>"}', () => {
    expect(repositoryFromSidecar('{"repository": "https://github.com/a/b"}')).toBe(
      'https://github.com/a/b',
    )
    expect(repositoryFromSidecar('{"repo": "https://github.com/a/b"}')).toBeNull()
    expect(repositoryFromSidecar('not json')).toBeNull()
    expect(repositoryFromSidecar('{"repository": " "}')).toBeNull()
  })

  const expectations = parseExpectations({
    'https://github.com/lookalike/first-pack': [['FirstNode', 'SecondNode'], { title_aux: 'x' }],
    'https://github.com/LookAlike/Second-Pack.git': ['OnlyNode'],
  })

  it('takes the first candidate the map knows, and says which way it matched', () => {
    expect(
      matchRepository(
        [
          { source: 'sidecar', url: null },
          { source: 'zip name', url: 'https://github.com/lookalike/unknown' },
          { source: 'pyproject', url: 'https://github.com/lookalike/second-pack' },
        ],
        expectations,
      ),
    ).toEqual({
      source: 'pyproject',
      url: 'https://github.com/lookalike/second-pack',
      expected: { names: ['OnlyNode'], pattern: null },
    })
    expect(
      matchRepository(
        [
          { source: 'zip name', url: 'https://github.com/lookalike/first-pack' },
          { source: 'pyproject', url: 'https://github.com/lookalike/second-pack' },
        ],
        expectations,
      )?.source,
    ).toBe('zip name')
    expect(matchRepository([{ source: 'zip name', url: null }], expectations)).toBeNull()
  })
})

describe('parseExpectations', () => {
  it('keeps the Manager-shaped nodename_pattern and drops an invalid one', () => {
    const map = parseExpectations({
      'https://github.com/lookalike/suffixed': [[], { nodename_pattern: ' \\(lookalike\\)$' }],
      'https://github.com/lookalike/broken': [['A'], { nodename_pattern: '(' }],
    })
    expect(map.get('github.com/lookalike/suffixed')?.pattern?.test('Seed (lookalike)')).toBe(true)
    expect(map.get('github.com/lookalike/broken')).toEqual({ names: ['A'], pattern: null })
  })

  it.each([
    [[], /must be a JSON object/],
    [null, /must be a JSON object/],
    [{ 'https://github.com/a/b': 'Node' }, /entry for 'https:\/\/github.com\/a\/b' must be/],
    [{ 'https://github.com/a/b': [[1, 2], {}] }, /must be \[\["Class", \.\.\.\], \{\.\.\.\}\]/],
  ])('refuses %j', (data, message) => {
    expect(() => parseExpectations(data)).toThrow(message)
  })
})

describe('score', () => {
  it('counts recall over the listed classes and precision over the found ones', () => {
    const result = score({ names: ['A', 'B', 'C', 'D'], pattern: null }, ['A', 'B', 'B', 'X'])
    expect(result).toMatchObject({ expected: 4, found: 3, matched: 2, accepted: 2 })
    expect(result.recall).toBeCloseTo(0.5)
    expect(result.precision).toBeCloseTo(2 / 3)
    expect(result.missed).toEqual(['C', 'D'])
    expect(result.unexpected).toEqual(['X'])
  })

  it('compares names exactly', () => {
    expect(score({ names: ['MaskNode'], pattern: null }, ['masknode']).matched).toBe(0)
  })

  it('accepts pattern matches for precision, not for recall', () => {
    const expectation = { names: [], pattern: / \(lookalike\)$/ }
    const result = score(expectation, ['Seed (lookalike)', 'Other'])
    expect(result.recall).toBeNull()
    expect(result.precision).toBeCloseTo(0.5)
    expect(result.unexpected).toEqual(['Other'])
  })

  it('has no precision when nothing was found or the map says nothing', () => {
    expect(score({ names: ['A'], pattern: null }, []).precision).toBeNull()
    expect(score({ names: [], pattern: null }, ['A']).precision).toBeNull()
  })

  it('micro-averages: big packs weigh more, silent entries are left out', () => {
    const overall = overallScore([
      score({ names: ['A', 'B', 'C', 'D'], pattern: null }, ['A', 'B', 'C', 'D']),
      score({ names: ['E', 'F'], pattern: null }, ['E', 'Y', 'Z']),
      score({ names: [], pattern: null }, ['Q', 'R']),
    ])
    expect(overall).toMatchObject({ expected: 6, matched: 5, found: 7, accepted: 5 })
    expect(overall.recall).toBeCloseTo(5 / 6)
    expect(overall.precision).toBeCloseTo(5 / 7)
    expect(overallScore([]).recall).toBeNull()
  })
})

describe('figures', () => {
  it('takes median and nearest-rank percentiles', () => {
    expect(median([])).toBeNull()
    expect(median([5, 1, 3])).toBe(3)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i)
    expect(percentile(hundred, 95)).toBe(95)
    expect(percentile(hundred, 100)).toBe(100)
    expect(percentile([7], 95)).toBe(7)
    expect(percentile([], 95)).toBeNull()
  })

  it('formats ratios', () => {
    expect(percent(null)).toBe('-')
    expect(percent(0.9876)).toBe('98.8 %')
  })

  it('counts findings by rule and severity, most severe first', () => {
    const counts = countByRule(
      [
        { issue_type: 'minified', severity: 'low' },
        { issue_type: 'shell', severity: 'high' },
        { issue_type: 'minified', severity: 'low' },
        { issue_type: 'shell', severity: 'medium' },
      ],
      ['low', 'medium', 'high', 'critical'],
    )
    expect(formatRuleCounts(counts)).toBe('shell:high×1, shell:medium×1, minified:low×2')
    expect(formatRuleCounts([])).toBe('none')
  })

  it('lines up table columns', () => {
    expect(
      formatTable(
        ['pack', 'classes'],
        [
          ['a', '12'],
          ['longer-pack', '3'],
        ],
      ).split('\n'),
    ).toEqual([
      '| pack        | classes |',
      '|-------------|---------|',
      '| a           | 12      |',
      '| longer-pack | 3       |',
    ])
  })
})

describe('readPyproject', () => {
  const lookalike = [
    '# a look-alike pack',
    '[project]',
    'name = "lookalike-pack"',
    'description = \'Nodes that "look" alike\'',
    'version = "1.0.2608210019" # date-stamped',
    'license = { file = "LICENSE" }',
    'dependencies = [',
    '  "numpy>=1.24",  # comment inside',
    "  'pillow',",
    '  """opencv-python""",',
    ']',
    'classifiers = ["A", [1, 2], { a = 1 }]',
    '',
    '[project.urls]',
    'Repository = "https://github.com/lookalike/pack"',
    '"Bug Tracker" = "https://github.com/lookalike/pack/issues"',
    '',
    '[tool.comfy]',
    'PublisherId = "lookalike"',
    'DisplayName = """Look',
    'Alike"""',
    '',
    '[[tool.other]]',
    'x = 1',
    '[[tool.other]]',
    'x = 2',
  ].join('\n')

  it('reads what comfy node publish sends', () => {
    expect(readPyproject(lookalike)).toEqual({
      name: 'lookalike-pack',
      version: '1.0.2608210019',
      dependencies: ['numpy>=1.24', 'pillow', 'opencv-python'],
      repository: 'https://github.com/lookalike/pack',
    })
    const { table } = parseToml(lookalike)
    expect(table.tool).toEqual({
      comfy: { PublisherId: 'lookalike', DisplayName: 'Look\nAlike' },
      other: [{ x: '1' }, { x: '2' }],
    })
  })

  it('reads urls as an inline or dotted table, and other spellings of Repository', () => {
    expect(
      readPyproject('[project]\nurls = { Repository = "https://github.com/a/b" }').repository,
    ).toBe('https://github.com/a/b')
    expect(readPyproject('[project]\nurls.repository = "https://github.com/a/c"').repository).toBe(
      'https://github.com/a/c',
    )
  })

  it('decodes escapes and the quotes just before a closing """', () => {
    const { table } = parseToml('a = "tab\\there \\u00e9"\nb = """say "hi""""\nc = \'C:\\path\'')
    expect(table).toEqual({ a: 'tab\there é', b: 'say "hi"', c: 'C:\\path' })
  })

  it('keeps what it read before an error, and says where it stopped', () => {
    const result = readPyproject('[project]\nversion = "2.0.0"\ndependencies = ["a", "b"\nname = 1')
    expect(result.version).toBe('2.0.0')
    expect(result.error).toMatch(/^line 4: /)
    expect(readPyproject('')).toEqual({ dependencies: [] })
  })
})

describe('namesMappedInSources', () => {
  it('finds names mapped to a class on code lines, not in comments or display names', () => {
    const sources = [
      'NODE_CLASS_MAPPINGS = {\n    "KeptNode": Kept,\n    # "RemovedNode": Removed,\n}',
      'NODE_DISPLAY_NAME_MAPPINGS = {"RemovedNode": "Removed node", "Kept (v2)": "Kept"}',
      "MAPPINGS = {'SingleQuoted' :X}\nNODE_CLASS_MAPPINGS['Assigned.*'] = Y",
    ]
    expect(
      namesMappedInSources(
        ['KeptNode', 'RemovedNode', 'SingleQuoted', 'Assigned.*', 'Kept (v2)', 'Absent', 'Kept'],
        sources,
      ),
    ).toEqual(new Set(['KeptNode', 'SingleQuoted', 'Assigned.*']))
  })
})
