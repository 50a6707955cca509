// The Comfy Registry's published standards (https://docs.comfy.org/registry/standards) that the
// scan enforces, in one place. Every scan rule (scan-rules.ts) names the standard it enforces
// and whether a match means malicious code or a breach of a standard; a finding carries both, so
// its publisher and the admins see which standard it is about and what to change.
//
// Only what the page says is cited: its base standard "Community Value" (avoid malicious
// behaviour), the security section's opening ("custom nodes should be secure") and its three
// policies: no eval/exec, no runtime pip install through subprocess, no obfuscated code.

export const STANDARDS_URL = 'https://docs.comfy.org/registry/standards'

export interface Standard {
  /** Stable: stored with findings. */
  id: string
  title: string
  url: string
  /** What the publisher should change, in a sentence or two. */
  remedy: string
}

const standard = (id: string, title: string, remedy: string): Standard => ({
  id,
  title,
  url: STANDARDS_URL,
  remedy,
})

export const STANDARDS = {
  noMaliciousBehavior: standard(
    'no-malicious-behavior',
    'Community value: no malicious behaviour',
    'Remove the code or dependency: a node must not reach for secrets, hide what it runs or install look-alike packages. If this is a mistake, ask an admin to review the version.',
  ),
  secure: standard(
    'secure-nodes',
    'Security: custom nodes should be secure',
    'Do not start processes when the module is imported, pass commands as a list of arguments without shell=True, and declare dependencies from PyPI in requirements.txt or pyproject.toml.',
  ),
  noEvalExec: standard(
    'no-eval-exec',
    'Security: no eval/exec calls',
    'Replace eval/exec with explicit code: ast.literal_eval for literals, a dictionary of allowed operations for expressions, importlib for modules.',
  ),
  noPipInstall: standard(
    'no-runtime-pip-install',
    'Security: no pip install through subprocess',
    'List the packages in requirements.txt or pyproject.toml; ComfyUI-Manager installs them. Do not call pip from the node.',
  ),
  noObfuscation: standard(
    'no-code-obfuscation',
    'Security: no code obfuscation',
    'Publish readable source: no minified, packed or encoded Python or JavaScript. Ship the unminified source beside any bundle.',
  ),
} as const satisfies Record<string, Standard>

export type StandardKey = keyof typeof STANDARDS

/**
 * What a finding means: `malicious` (or unsafe enough to block installs: the version is Flagged
 * when the finding reaches SCAN_FLAG_SEVERITY) or `standard` (the code breaks a published
 * standard: shown to the publisher, the version stays installable by default).
 */
export const FINDING_KINDS = ['malicious', 'standard'] as const
export type FindingKind = (typeof FINDING_KINDS)[number]
