// The static scan's rules, as data. `scan.ts` applies them; `scan-fixtures.ts` holds a malicious
// and a harmless look-alike sample for every rule id (a test fails when one is missing).
//
// Every regex here must stay linear: no nested quantifiers, no unbounded runs that can cross
// lines (the scanner first tests whole files to skip rules that cannot match), no `g`/`y` flags
// (they keep state between calls), flow sources anchored at the line start so that their `.*?`
// runs once per line (lines are at most 10,000 characters).
import type { Severity } from './findings'
import type { FindingKind, StandardKey } from './standards'

export type Language = 'python' | 'javascript'

/** A line matches when every regex of `all` matches it and none of `unless` does. */
export interface LineMatcher {
  all: readonly RegExp[]
  unless?: readonly RegExp[]
}

/**
 * A value that flows into a sink: `source` assigns a variable (capture group 1) from something
 * suspicious, and a later line passes that variable to `sink` (capture group 1).
 */
export interface FlowMatcher {
  source: RegExp
  sink: RegExp
}

/** What every rule says about the standard it enforces (standards.ts). */
interface Enforces {
  standard: StandardKey
  /** Malicious (flags at SCAN_FLAG_SEVERITY) or a breach of a standard (shown, not flagged). */
  outcome: FindingKind
}

/**
 * Which Python code a rule looks at (JavaScript files are always read whole). Payload rules have
 * no scope: they apply to every file, imported by ComfyUI or not. The others follow what ComfyUI
 * runs when it loads the pack: the modules on the package's import graph from its entry module
 * ("reachable", from the extractor; every file when unknown), and in them
 * - `import-time`: module-level code (class bodies too), not function bodies and not
 *   `if __name__ == "__main__":` blocks;
 * - `runtime`: function bodies, which run when a node does;
 * - `reachable`: any code.
 */
export type RuleScope = 'import-time' | 'runtime' | 'reachable'

/** A rule on the text of source files. */
export interface CodeRule extends Enforces {
  kind: 'code'
  id: string
  severity: Severity
  languages: readonly Language[]
  message: string
  lines?: readonly LineMatcher[]
  flows?: readonly FlowMatcher[]
  scope?: RuleScope
  /**
   * The severity when nothing from outside the package flows into the matched line (see
   * `externalInput` in scan.ts); `severity` applies when something does.
   */
  untaintedSeverity?: Severity
  /** Not reported on a line where one of these rules reported (the worse finding says it). */
  supersededBy?: readonly string[]
  /** The file must also contain this somewhere (e.g. the child_process import). */
  fileRequires?: RegExp
}

/** A rule on the presence of a file. */
export interface FileRule extends Enforces {
  kind: 'file'
  id: string
  severity: Severity
  message: string
  path: RegExp
  /** Only when the file reads as UTF-8 text (e.g. a `.pth` path file, not PyTorch weights). */
  textOnly: boolean
}

/** A rule on declared dependencies (pyproject's list and requirements.txt). */
export interface DependencyRule extends Enforces {
  kind: 'dependency'
  id: string
  severity: Severity
  message: string
  check: 'typo-squat' | 'known-malicious' | 'outside-pypi'
}

export type ScanRule = CodeRule | FileRule | DependencyRule

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Runs a string as code. Method calls (`re.compile(`, `model.eval(`, `/x/.exec(`) are not. */
const RUNS_CODE =
  /(?<![\w.$])(?:exec|eval|compile|execfile)\s*\(|\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(/

/** The variable passed to something that runs code. */
const RUNS_VARIABLE = /(?:(?<![\w.$])(?:exec|eval|compile)|\bFunction)\s*\(\s*([A-Za-z_$][\w$]*)/

/** Decoding or unscrambling of a hidden payload. */
const DECODES = new RegExp(
  [
    /\b(?:b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring)\s*\(/,
    /\b(?:zlib|lzma|bz2|gzip)\.decompress\s*\(/,
    /\bmarshal\.loads\s*\(/,
    /\bcodecs\.decode\s*\(/,
    /\.fromhex\s*\(/,
    /\brot_?13\b/,
    /\batob\s*\(/,
    /\bBuffer\.from\s*\([^)\n]{0,300}['"](?:base64|hex)['"]/,
    /\bString\.fromCharCode\s*\(/,
    /(?<![\w.])chr\s*\(/,
    /\[::-1\]/,
    /\\x[0-9a-fA-F]{2}/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
)

/** Fetching something over the network. */
const DOWNLOADS = new RegExp(
  [
    /\burlopen\s*\(/,
    /\burlretrieve\s*\(/,
    /\burllib\.request\b/,
    /\brequests\.(?:get|post|request|Session)\b/,
    /\bhttpx\.(?:get|post|request|Client|AsyncClient)\b/,
    /\baiohttp\b/,
    /\bhttp\.client\b/,
    /\bfetch\s*\(/,
    /\bXMLHttpRequest\b/,
    /\baxios\b/,
    /\.responseText\b/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
)

/** `name = <anything containing marker>` at the start of a (logical) line. */
function assignedFrom(marker: RegExp): RegExp {
  return new RegExp(
    `^\\s*(?:(?:const|let|var)\\s+)?([A-Za-z_$][\\w$]*)\\s*=(?!=).*?(?:${marker.source})`,
  )
}

/** Starting a process. */
const RUNS_PROCESS = new RegExp(
  [
    /\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(/,
    /\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\s*\(/,
    /\b__import__\s*\(\s*['"](?:os|subprocess)['"]\s*\)\s*\.\s*\w+\s*\(/,
    /\bpty\.spawn\s*\(/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
)

/** Installing packages with pip. */
const PIP_INSTALL = /\bpip3?\s+install\b|['"]pip3?['"]\s*,\s*['"]install['"]/

/** A string built from pieces: concatenation, f-strings, %-formatting, .format(). */
const BUILT_STRING =
  /(?<!\w)(?:[fF][rR]?|[rR][fF])['"]|['"]\s*\+|\+\s*['"]|['"]\s*%\s*[\w(]|\.format\s*\(/

// ---------------------------------------------------------------------------------------------
// The rules

export const SCAN_RULES = [
  {
    kind: 'code',
    id: 'exec-decoded-payload',
    standard: 'noEvalExec',
    outcome: 'malicious',
    severity: 'critical',
    languages: ['python', 'javascript'],
    message:
      'Runs code that was decoded or unscrambled at run time (base64, zlib, marshal, hex, rot13…): the usual way to hide a malicious payload.',
    lines: [{ all: [RUNS_CODE, DECODES] }],
    flows: [{ source: assignedFrom(DECODES), sink: RUNS_VARIABLE }],
  },
  {
    kind: 'code',
    id: 'download-exec',
    standard: 'noEvalExec',
    outcome: 'malicious',
    severity: 'critical',
    languages: ['python', 'javascript'],
    message:
      'Downloads code and runs it: what runs is not in the archive and can change at any time.',
    lines: [
      { all: [RUNS_CODE, DOWNLOADS] },
      { all: [/\.then\s*\(\s*(?:window\.)?(?:eval|Function)\s*\)/] },
      {
        all: [
          /\b(?:curl|wget)\b[^|\n]{0,400}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[\d.]*|node|perl)\b/,
        ],
      },
      {
        all: [
          /\b(?:iex|Invoke-Expression)\b/i,
          /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b/i,
        ],
      },
    ],
    flows: [{ source: assignedFrom(DOWNLOADS), sink: RUNS_VARIABLE }],
  },
  {
    kind: 'code',
    id: 'credential-theft',
    standard: 'noMaliciousBehavior',
    outcome: 'malicious',
    severity: 'critical',
    languages: ['python', 'javascript'],
    message:
      'Refers to where browsers, crypto wallets or SSH keep secrets (saved passwords, cookies, wallet files, private keys). A ComfyUI node has no reason to read them.',
    lines: [
      {
        all: [
          new RegExp(
            [
              /\bLogin Data\b/,
              /[\\/'"]Cookies['"]/,
              /\blogins\.json\b/,
              /\bkey[34]\.db\b/,
              /\bcookies\.sqlite\b/,
              /\bLocal State\b/,
              /\bLocal Storage[\\/]+leveldb\b/,
              /[\\/'"]\.?(?:Exodus|exodus|Electrum|electrum)[\\/'"]/,
              /\bexodus\.wallet\b/,
              /\bwallet\.dat\b/,
              /\bMetaMask\b/,
              /\bnkbihfbeogaeaoehlefnkodbefgpgknn\b/,
              /\.ssh[\\/]+id_(?:rsa|dsa|ecdsa|ed25519)\b/,
              /['"]id_(?:rsa|dsa|ecdsa|ed25519)['"]/,
            ]
              .map((pattern) => pattern.source)
              .join('|'),
          ),
        ],
      },
    ],
  },
  {
    kind: 'code',
    id: 'import-time-pip-install',
    standard: 'noPipInstall',
    outcome: 'standard',
    severity: 'high',
    languages: ['python'],
    message:
      'Installs packages with pip when the module is imported: dependencies belong in requirements.txt or pyproject.toml, where they can be reviewed.',
    scope: 'import-time',
    lines: [{ all: [PIP_INSTALL, RUNS_PROCESS] }, { all: [/\bpip\.main\s*\(/] }],
  },
  {
    kind: 'code',
    id: 'import-time-subprocess',
    standard: 'secure',
    outcome: 'malicious',
    severity: 'high',
    languages: ['python'],
    message:
      'Starts a process when the module is imported (subprocess, os.system, os.popen): it runs as soon as ComfyUI loads the node.',
    scope: 'import-time',
    lines: [{ all: [RUNS_PROCESS], unless: [PIP_INSTALL] }],
  },
  {
    kind: 'code',
    id: 'runtime-pip-install',
    standard: 'noPipInstall',
    outcome: 'standard',
    severity: 'medium',
    languages: ['python'],
    message:
      'Installs packages with pip while the node runs: the registry standards ask for dependencies in requirements.txt or pyproject.toml, installed by ComfyUI-Manager.',
    scope: 'runtime',
    lines: [{ all: [PIP_INSTALL, RUNS_PROCESS] }, { all: [/\bpip\.main\s*\(/] }],
  },
  {
    kind: 'code',
    id: 'eval-exec-call',
    standard: 'noEvalExec',
    outcome: 'standard',
    severity: 'medium',
    languages: ['python'],
    message:
      'Calls eval or exec: the registry standards forbid them, because a workflow that passes its inputs to them can run any code.',
    scope: 'reachable',
    supersededBy: ['exec-decoded-payload', 'download-exec'],
    lines: [{ all: [/(?<![\w.])(?:eval|exec)\s*\(/] }],
  },
  {
    kind: 'code',
    id: 'shell-command-from-string',
    standard: 'secure',
    outcome: 'malicious',
    severity: 'high',
    untaintedSeverity: 'medium',
    languages: ['python'],
    message:
      'Runs a shell command built from pieces of text (shell=True or os.system with concatenation, f-strings or formatting): a value containing ; or $() runs its own commands. Pass a list of arguments without shell=True.',
    lines: [
      { all: [/\bshell\s*=\s*True\b/, BUILT_STRING] },
      { all: [/\bos\.(?:system|popen)\s*\(/, BUILT_STRING] },
    ],
  },
  {
    kind: 'code',
    id: 'js-child-process',
    standard: 'secure',
    outcome: 'malicious',
    severity: 'high',
    languages: ['javascript'],
    message:
      'Starts processes through child_process. ComfyUI front-end extensions run in the browser and never need it.',
    fileRequires:
      /\brequire\s*\(\s*['"](?:node:)?child_process['"]\s*\)|\bfrom\s*['"](?:node:)?child_process['"]|\bimport\s*\(\s*['"](?:node:)?child_process['"]\s*\)/,
    lines: [{ all: [/\b(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)\s*\(/] }],
  },
  {
    kind: 'file',
    id: 'pth-file',
    standard: 'noMaliciousBehavior',
    outcome: 'malicious',
    severity: 'high',
    message:
      'A .pth path file: once copied into site-packages, Python runs its "import" lines at every start-up. (PyTorch weights, which are binary, are not reported.)',
    path: /\.pth$/i,
    textOnly: true,
  },
  {
    kind: 'dependency',
    id: 'known-malicious-dependency',
    standard: 'noMaliciousBehavior',
    outcome: 'malicious',
    severity: 'critical',
    message: 'Depends on a package known to be malicious',
    check: 'known-malicious',
  },
  {
    kind: 'dependency',
    id: 'typosquat-dependency',
    standard: 'noMaliciousBehavior',
    outcome: 'malicious',
    severity: 'high',
    message: 'Depends on a package whose name is one or two letters away from a popular one',
    check: 'typo-squat',
  },
  {
    kind: 'dependency',
    id: 'dependency-outside-pypi',
    standard: 'secure',
    outcome: 'standard',
    severity: 'low',
    message: 'Installs code from outside PyPI (a URL or another package index)',
    check: 'outside-pypi',
  },
] as const satisfies readonly ScanRule[]

export type ScanRuleId = (typeof SCAN_RULES)[number]['id']

// ---------------------------------------------------------------------------------------------
// Dependency data (names normalised as PEP 503 does: lower case, runs of -_. become -)

/** Popular packages of ComfyUI nodes; names close to these are likely typo-squats. */
export const POPULAR_PACKAGES: readonly string[] = [
  'requests',
  'numpy',
  'torch',
  'torchvision',
  'torchaudio',
  'pillow',
  'opencv-python',
  'opencv-python-headless',
  'opencv-contrib-python',
  'transformers',
  'diffusers',
  'safetensors',
  'huggingface-hub',
  'accelerate',
  'scipy',
  'tqdm',
  'einops',
  'kornia',
  'timm',
  'xformers',
  'onnxruntime',
  'onnxruntime-gpu',
  'matplotlib',
  'scikit-image',
  'scikit-learn',
  'pyyaml',
  'aiohttp',
  'psutil',
  'colorama',
  'urllib3',
  'setuptools',
  'gitpython',
  'insightface',
  'mediapipe',
  'ultralytics',
  'omegaconf',
  'sentencepiece',
  'tokenizers',
  'pandas',
  'imageio',
  'pydantic',
  'rembg',
  'spandrel',
]

/** Real packages that happen to be close to a popular name. */
export const ALLOWED_NEAR_NAMES: readonly string[] = [
  'scapy',
  'torchx',
  'pyaml',
  'grequests',
  'willow',
  // NVIDIA's GPU monitoring bindings (popular with node packs), two letters from pyyaml.
  'pynvml',
]

/** Names used by published malware (typo-squats and dependency-confusion packages). */
export const KNOWN_MALICIOUS_PACKAGES: readonly string[] = [
  'requesocks',
  'colourama',
  'python3-dateutil',
  'jeilyfish',
  'setup-tools',
  'urlib3',
  'torchtriton',
  'openvc',
  'python-sqlite',
  'diango',
  'djanga',
  'noblesse',
]
