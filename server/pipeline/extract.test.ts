import fs from 'node:fs'
import path from 'node:path'

import { extractComfyNodes, type ExtractedComfyNode, type Extraction } from './extract'

const FIXTURES = path.join(__dirname, 'extract-fixtures')

/** A fixture package as the pipeline hands it over: every .py file by its relative path. */
function fixture(name: string): Map<string, string> {
  const root = path.join(FIXTURES, name)
  const files = new Map<string, string>()
  for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(root, entry)
    if (fs.statSync(full).isFile()) {
      files.set(entry.split(path.sep).join('/'), fs.readFileSync(full, 'utf8'))
    }
  }
  return files
}

const pack = (files: Record<string, string>) => new Map(Object.entries(files))

function succeeded(result: Extraction): ExtractedComfyNode[] {
  if (result.status !== 'success') throw new Error(`expected success, got: ${result.reason}`)
  return result.nodes
}

function byName(nodes: ExtractedComfyNode[], name: string): ExtractedComfyNode {
  const node = nodes.find((n) => n.comfy_node_name === name)
  if (!node) throw new Error(`no node ${name}`)
  return node
}

describe('extractComfyNodes', () => {
  it('reads a one-file pack: classes and mappings in __init__.py', async () => {
    const result = await extractComfyNodes(fixture('single-file'))
    expect(result).toEqual({
      status: 'success',
      warnings: [],
      importedModules: ['__init__.py'],
      nodes: [
        {
          comfy_node_name: 'ImageBlend',
          display_name: 'Image Blend',
          category: 'image/postprocessing',
          description: 'Blends an image with itself.',
          input_types:
            '{"required":{"image":["IMAGE"],"strength":["FLOAT",{"default":1.0,"min":0,"max":2,"step":0.01}]},"optional":{}}',
          return_types: '["IMAGE"]',
          return_names: '["image"]',
          output_is_list: [false],
          function: 'blend',
          deprecated: false,
          experimental: false,
        },
        {
          comfy_node_name: 'SaveText',
          display_name: '',
          category: 'utils',
          description: '',
          input_types: '{"required":{"text":["STRING",{"multiline":true,"default":""}]}}',
          return_types: '[]',
          return_names: '',
          output_is_list: [],
          function: 'save',
          deprecated: true,
          experimental: false,
        },
      ],
    })
  })

  it('follows a package of modules merged with update, {**a, **b}, |, dict(a, **b) and item assignment', async () => {
    const nodes = succeeded(await extractComfyNodes(fixture('package')))
    expect(nodes.map((n) => [n.comfy_node_name, n.display_name])).toEqual([
      ['Invert', 'Invert Image'],
      ['Flip', ''],
      ['Concat', 'Concatenate'],
      ['EmptyLatent', ''],
      ['Extra', 'Extra Node'],
      ['Extra2', ''],
    ])
    // Inherited from a base class in another module, and extended through super().
    expect(byName(nodes, 'Invert')).toMatchObject({
      input_types: '{"required":{"image":["IMAGE"]}}',
      return_types: '["IMAGE"]',
      function: 'run',
      category: 'demo/image',
    })
    expect(byName(nodes, 'Flip').input_types).toBe(
      '{"required":{"image":["IMAGE"],"axis":[["horizontal","vertical"]]}}',
    )
    expect(byName(nodes, 'EmptyLatent').input_types).toBe(
      '{"required":{"width":["INT",{"default":512,"min":16,"max":8192,"step":8}]}}',
    )
    expect(byName(nodes, 'Extra2')).toMatchObject({ category: 'demo/extra', experimental: true })
  })

  it('resolves mappings built by comprehensions over literal collections', async () => {
    const result = await extractComfyNodes(fixture('comprehension'))
    const nodes = succeeded(result)
    expect(nodes.map((n) => [n.comfy_node_name, n.display_name])).toEqual([
      ['Resize', 'RESIZE'],
      ['Crop', 'CROP'],
      ['Rotate (Demo)', 'Rotate'],
      ['PadImage', ''],
      ['Blur', ''],
    ])
    expect(byName(nodes, 'Rotate (Demo)').input_types).toBe(
      '{"required":{"image":["IMAGE"],"angle":["FLOAT",{"default":0.0}]}}',
    )
  })

  it('finds all 200 nodes of a large generated pack, in mapping order', async () => {
    const classes: string[] = []
    const entries: string[] = []
    for (let i = 0; i < 200; i++) {
      classes.push(
        [
          `class Node${i}:`,
          '    @classmethod',
          '    def INPUT_TYPES(cls):',
          `        return {"required": {"value": ("INT", {"default": ${i}, "min": 0, "max": 1000})}}`,
          `    RETURN_TYPES = ("INT",)`,
          `    FUNCTION = "run"`,
          `    CATEGORY = "generated/${i % 10}"`,
          '',
        ].join('\n'),
      )
      entries.push(`    "Generated${i}": Node${i},`)
    }
    const files = pack({
      '__init__.py': 'from .nodes import NODE_CLASS_MAPPINGS\n',
      'nodes.py': `${classes.join('\n')}\nNODE_CLASS_MAPPINGS = {\n${entries.join('\n')}\n}\n`,
    })
    const nodes = succeeded(await extractComfyNodes(files))
    expect(nodes).toHaveLength(200)
    expect(nodes.map((n) => n.comfy_node_name)).toEqual(
      Array.from({ length: 200 }, (_, i) => `Generated${i}`),
    )
    expect(nodes[137]).toMatchObject({
      input_types: '{"required":{"value":["INT",{"default":137,"min":0,"max":1000}]}}',
      return_types: '["INT"]',
      category: 'generated/7',
    })
  })

  it('reads the define_schema / comfy_entrypoint style', async () => {
    const result = await extractComfyNodes(fixture('schema'))
    const nodes = succeeded(result)
    expect(nodes.map((n) => n.comfy_node_name)).toEqual(['ImageStrength', 'MakeThing', 'UseThing'])
    expect(byName(nodes, 'ImageStrength')).toEqual({
      comfy_node_name: 'ImageStrength',
      display_name: 'Image Strength',
      category: 'image/adjust',
      description: 'Scales an image.',
      input_types:
        '{"required":{"image":["IMAGE",{}],"strength":["FLOAT",{"default":1.0,"min":0,"max":2,"display":"slider"}],' +
        '"mode":["COMBO",{"multiselect":false,"options":["multiply","add"]}]},' +
        '"optional":{"mask":["MASK",{"tooltip":"Where to apply"}]}}',
      return_types: '["IMAGE","MASK"]',
      return_names: '["out","MASK"]',
      output_is_list: [false, true],
      function: 'execute',
      deprecated: false,
      experimental: true,
    })
    // IO. prefix, a custom type, a 64-bit maximum kept exactly.
    expect(byName(nodes, 'MakeThing')).toMatchObject({
      input_types:
        '{"required":{"count":["INT",{"default":1,"min":1,"max":18446744073709551615,"control_after_generate":true}],' +
        '"label":["STRING",{"multiline":true,"dynamicPrompts":false}]}}',
      return_types: '["MY_TYPE","*"]',
      return_names: '["thing","*"]',
      deprecated: true,
    })
    expect(byName(nodes, 'UseThing').input_types).toBe('{"required":{"thing":["MY_TYPE",{}]}}')
  })

  it('uses schema-style classes registered through NODE_CLASS_MAPPINGS', async () => {
    const files = pack({
      '__init__.py': [
        'from comfy_api.latest import io',
        'class Upscale(io.ComfyNode):',
        '    @classmethod',
        '    def define_schema(cls):',
        '        return io.Schema(node_id="UpscaleV3", display_name="Upscale", inputs=[io.Image.Input("image")], outputs=[io.Image.Output()])',
        'NODE_CLASS_MAPPINGS = {"Upscale": Upscale}',
        'NODE_DISPLAY_NAME_MAPPINGS = {"Upscale": "Upscale (mapped)"}',
      ].join('\n'),
    })
    const [node] = succeeded(await extractComfyNodes(files))
    expect(node).toMatchObject({
      comfy_node_name: 'Upscale',
      display_name: 'Upscale (mapped)',
      input_types: '{"required":{"image":["IMAGE",{}]}}',
      return_types: '["IMAGE"]',
      return_names: '["IMAGE"]',
      function: 'execute',
    })
  })

  it('keeps the structure of INPUT_TYPES with dynamic values, module constants and inheritance', async () => {
    const nodes = succeeded(await extractComfyNodes(fixture('inputs')))
    expect(byName(nodes, 'Switch')).toMatchObject({
      input_types:
        '{"required":{"mode":[["fast","accurate"]],' +
        '"value":["FLOAT",{"default":0.5,"min":-0.0015,"max":1e+20,"step":0.0001,"round":false}],' +
        '"size":["INT",{"default":4096,"max":8192,"seed_max":18446744073709551615}],' +
        '"anything":["*",{}],"label":["STRING",{"default":"demo-switch"}],"files":["<dynamic>"]},' +
        '"hidden":{"unique_id":"UNIQUE_ID"}}',
      return_types: '["*","INT"]',
      return_names: '["value","size"]',
      output_is_list: [false, true],
      category: 'demo/logic',
    })
    expect(byName(nodes, 'CheckpointLoader')).toMatchObject({
      input_types: '{"required":{"ckpt_name":["<dynamic>"]}}',
      return_types: '["MODEL","CLIP","VAE"]',
      return_names: '',
      output_is_list: [false, false, false],
      category: 'demo/loaders',
    })
    expect(byName(nodes, 'TunedLoader')).toMatchObject({
      input_types: '{"required":{"ckpt_name":["<dynamic>"]}}',
      return_names: '["model","clip","vae"]',
      function: 'load',
    })
  })

  it('follows registration decorators, loops over literal lists and importlib with literal names', async () => {
    const files = pack({
      '__init__.py': [
        'import importlib',
        'NODE_CLASS_MAPPINGS = {}',
        'for name in ["alpha", "beta"]:',
        '    module = importlib.import_module(f".nodes.{name}", __name__)',
        '    NODE_CLASS_MAPPINGS.update(module.NODE_CLASS_MAPPINGS)',
        'from .registry import REGISTERED',
        'NODE_CLASS_MAPPINGS.update(REGISTERED)',
        'if __name__ == "__main__":',
        '    NODE_CLASS_MAPPINGS = {}',
      ].join('\n'),
      'nodes/alpha.py':
        'class Alpha:\n    RETURN_TYPES = ("A",)\nNODE_CLASS_MAPPINGS = {"Alpha": Alpha}\n',
      'nodes/beta.py':
        'class Beta:\n    RETURN_TYPES = ("B",)\nNODE_CLASS_MAPPINGS = {"Beta": Beta}\n',
      'registry.py': [
        'REGISTERED = {}',
        'def register(name):',
        '    def wrap(cls):',
        '        REGISTERED[name] = cls',
        '        return cls',
        '    return wrap',
        '@register("Gamma Node")',
        'class Gamma:',
        '    RETURN_TYPES = ("G",)',
      ].join('\n'),
    })
    const nodes = succeeded(await extractComfyNodes(files))
    expect(nodes.map((n) => [n.comfy_node_name, n.return_types])).toEqual([
      ['Alpha', '["A"]'],
      ['Beta', '["B"]'],
      ['Gamma Node', '["G"]'],
    ])
  })

  it('warns about what it cannot follow and keeps unresolved entries by name', async () => {
    const files = pack({
      '__init__.py': [
        'from nodes import KSampler',
        'import os',
        'class Mine:',
        '    RETURN_TYPES = ("IMAGE",)',
        'NODE_CLASS_MAPPINGS = {"Mine": Mine, "Borrowed": KSampler, "Missing": Nowhere}',
        'for f in os.listdir(os.environ["EXTRA_NODES"]):',
        '    NODE_CLASS_MAPPINGS[f] = Mine',
      ].join('\n'),
    })
    const result = await extractComfyNodes(files)
    expect(result.status).toBe('success')
    if (result.status !== 'success') return
    expect(result.nodes.map((n) => n.comfy_node_name)).toEqual(['Mine', 'Borrowed', 'Missing'])
    expect(byName(result.nodes, 'Borrowed')).toEqual({
      comfy_node_name: 'Borrowed',
      display_name: '',
      category: '',
      description: '',
      input_types: '',
      return_types: '',
      return_names: '',
      output_is_list: [],
      function: '',
      deprecated: false,
      experimental: false,
    })
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        'NODE_CLASS_MAPPINGS may be incomplete: __init__.py:6: a for loop over a value that is not statically known',
        'NODE_CLASS_MAPPINGS["Borrowed"] does not resolve to a class defined in the package',
        'NODE_CLASS_MAPPINGS["Missing"] does not resolve to a class defined in the package',
        'Mine (class Mine, __init__.py:3): no INPUT_TYPES found',
      ]),
    )
  })

  describe('dynamic registration over the archive as a file system', () => {
    const names = (nodes: ExtractedComfyNode[]) => nodes.map((n) => n.comfy_node_name)
    const letters = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel']
    const more = ['India', 'Juliet', 'Kilo', 'Lima', 'Mike']

    it('os.listdir + importlib.import_module, keys suffixed, in sorted listing order', async () => {
      const result = await extractComfyNodes(fixture('dynamic-listdir'))
      const nodes = succeeded(result)
      expect(names(nodes)).toEqual([...letters, ...more].map((n) => `${n}|pack`))
      expect(byName(nodes, 'Kilo|pack')).toMatchObject({
        display_name: 'Kilo Node (pack)',
        category: 'pack/utils',
        input_types: '{"required":{"value":["STRING",{"default":"kilo"}]}}',
        return_types: '["STRING"]',
      })
      if (result.status === 'success') expect(result.warnings).toEqual([])
      // The modules loaded by the listing ran at import; the release script did not.
      expect(result.importedModules).toEqual([
        '__init__.py',
        ...[...letters, ...more].flatMap((n, i) => [
          `py/${n.toLowerCase()}.py`,
          ...(i === 0 ? ['py/_shared.py'] : []),
        ]),
      ])
    })

    it('glob.glob + spec_from_file_location / exec_module, key + suffix', async () => {
      const result = await extractComfyNodes(fixture('dynamic-glob'))
      expect(names(succeeded(result))).toEqual(['Blur|glob', 'Sharpen|glob'])
      expect(byName(succeeded(result), 'Blur|glob').input_types).toBe(
        '{"required":{"image":["IMAGE"],"radius":["INT",{"default":3}]}}',
      )
      expect(result.importedModules).toEqual(['__init__.py', 'nodes/blur.py', 'nodes/sharpen.py'])
    })

    it('pathlib glob/iterdir and classes found through dir() and getattr', async () => {
      const result = await extractComfyNodes(fixture('dynamic-pathlib'))
      expect(names(succeeded(result))).toEqual(['AddNumbers', 'MultiplyNumbers', 'JoinText'])
      expect(byName(succeeded(result), 'MultiplyNumbers').function).toBe('multiply')
    })

    it('os.walk over a subpackage with absolute dotted imports and {**a, **b} merges', async () => {
      const result = await extractComfyNodes(fixture('dynamic-walk'))
      expect(names(succeeded(result))).toEqual(['Crop (walk)', 'Upper (walk)'])
      expect(result.importedModules).toEqual([
        '__init__.py',
        'modules/__init__.py',
        'modules/image/crop.py',
        'modules/text/upper.py',
      ])
    })

    it('try-imports: the ImportError fallback when the module is missing, third-party imports opaque', async () => {
      const result = await extractComfyNodes(fixture('try-import'))
      expect(names(succeeded(result))).toEqual(['LegacyNode', 'EdgeDetect'])
      expect(result.importedModules).toEqual(['__init__.py', 'nodes_legacy.py', 'vision.py'])
    })

    it('__import__ with a fromlist and a level', async () => {
      const result = await extractComfyNodes(fixture('dunder-import'))
      expect(names(succeeded(result))).toEqual(['AddNoise', 'RandomSeed'])
    })

    it('lists non-Python files too when given every path of the package', async () => {
      const files = pack({
        '__init__.py': [
          'import os',
          'class Preset:',
          '    RETURN_TYPES = ("STRING",)',
          'here = os.path.dirname(__file__)',
          'NODE_CLASS_MAPPINGS = {}',
          'for f in os.listdir(os.path.join(here, "presets")):',
          '    if f.endswith(".json"):',
          '        NODE_CLASS_MAPPINGS["Preset " + f[:-5]] = Preset',
          'if not os.path.exists(os.path.join(here, "config.yaml")):',
          '    NODE_CLASS_MAPPINGS["Setup"] = Preset',
        ].join('\n'),
        'presets/helper.py': 'X = 1\n',
      })
      const paths = ['__init__.py', 'presets/b.json', 'presets/a.json', 'presets/helper.py']
      const known = await extractComfyNodes(files, { paths })
      expect(names(succeeded(known))).toEqual(['Preset a', 'Preset b', 'Setup'])
      // Without the list only the .py files are known: the existence of config.yaml is not.
      const partial = await extractComfyNodes(files)
      expect(names(succeeded(partial))).toEqual(['Setup'])
    })

    it('reads Enum members used as keys', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': [
            'from enum import Enum',
            'class Names(Enum):',
            '    PRIMITIVE = "Primitive [pack]"',
            'class Primitive:',
            '    RETURN_TYPES = ("INT",)',
            'NODE_CLASS_MAPPINGS = {Names.PRIMITIVE.value: Primitive}',
          ].join('\n'),
        }),
      )
      expect(names(succeeded(result))).toEqual(['Primitive [pack]'])
    })

    it('says why when the listed folder is outside the package', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': [
            'import os, importlib',
            'NODE_CLASS_MAPPINGS = {}',
            'for name in os.listdir("/opt/shared/nodes"):',
            '    module = importlib.import_module(name)',
            '    NODE_CLASS_MAPPINGS.update(module.NODE_CLASS_MAPPINGS)',
          ].join('\n'),
        }),
      )
      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.reason).toContain(
        '__init__.py:3: a for loop over a value that is not statically known',
      )
    })
  })

  describe('importedModules: what importing the package runs', () => {
    const files = pack({
      '__init__.py': [
        'import os',
        'from .nodes import Top',
        'try:',
        '    from .optional import Opt',
        '    import torchvision',
        'except ImportError:',
        '    Opt = None',
        'if os.environ.get("X"):',
        '    from .unknown_branch import U',
        'def later():',
        '    from .lazy import Lazy',
        '    return Lazy',
        'class Holder:',
        '    def method(self):',
        '        import tools.helper',
        'if __name__ == "__main__":',
        '    from . import main_only',
        'NODE_CLASS_MAPPINGS = {"Top": Top}',
      ].join('\n'),
      'nodes/__init__.py': 'from .top import Top\n',
      'nodes/top.py': 'from ..shared import util\nclass Top:\n    RETURN_TYPES = ("T",)\n',
      'shared.py': 'util = 1\n',
      'optional.py': 'class Opt:\n    pass\n',
      'unknown_branch.py': 'class U:\n    pass\n',
      'lazy.py': 'class Lazy:\n    pass\n',
      'tools/helper.py': 'import subprocess\nsubprocess.Popen(["git", "status"])\n',
      'main_only.py': 'print("hi")\n',
      'release.py': 'import subprocess\nsubprocess.Popen(["git", "tag"])\n',
    })

    it('lists the modules module-level code imports, transitively, entry first', async () => {
      const result = await extractComfyNodes(files)
      expect(result.status).toBe('success')
      expect(result.importedModules).toEqual([
        '__init__.py',
        'nodes/__init__.py',
        'nodes/top.py',
        'shared.py',
        'optional.py',
        'unknown_branch.py',
      ])
    })

    it('leaves out modules imported only inside functions, even when node reading runs them', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': [
            'class A:',
            '    @classmethod',
            '    def INPUT_TYPES(cls):',
            '        from .choices import CHOICES',
            '        return {"required": {"x": (CHOICES,)}}',
            '    RETURN_TYPES = ("A",)',
            'NODE_CLASS_MAPPINGS = {"A": A}',
          ].join('\n'),
          'choices.py': 'CHOICES = ["a", "b"]\n',
        }),
      )
      if (result.status !== 'success') throw new Error(result.reason)
      expect(result.nodes[0].input_types).toBe('{"required":{"x":[["a","b"]]}}')
      expect(result.importedModules).toEqual(['__init__.py'])
    })

    it('is known even when extraction fails after the entry module ran', async () => {
      const result = await extractComfyNodes(
        pack({ '__init__.py': 'from . import helpers\n', 'helpers.py': 'X = 1\n' }),
      )
      expect(result.status).toBe('failed')
      expect(result.importedModules).toEqual(['__init__.py', 'helpers.py'])
    })
  })

  describe('failures', () => {
    it('fails without __init__.py', async () => {
      const result = await extractComfyNodes(pack({ 'nodes.py': 'x = 1\n' }))
      expect(result).toEqual({
        status: 'failed',
        reason: 'No __init__.py found in the package',
        nodes: [],
        importedModules: null,
      })
    })

    it('fails without mappings or an entrypoint', async () => {
      const result = await extractComfyNodes(pack({ '__init__.py': 'WEB_DIRECTORY = "./js"\n' }))
      expect(result).toEqual({
        status: 'failed',
        reason: 'No NODE_CLASS_MAPPINGS or comfy_entrypoint found in __init__.py',
        nodes: [],
        importedModules: ['__init__.py'],
      })
    })

    it('fails on a syntax error in __init__.py, naming the file and line', async () => {
      const result = await extractComfyNodes(
        pack({ '__init__.py': 'NODE_CLASS_MAPPINGS = {}\n\ndef broken(:\n    pass\n' }),
      )
      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.reason).toMatch(/^Syntax error in __init__\.py at line 3/)
      expect(result.importedModules).toBeNull()
    })

    it('only warns about a syntax error in another module', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': 'from .a import A\nNODE_CLASS_MAPPINGS = {"A": A}\n',
          'a.py': 'class A:\n    RETURN_TYPES = ("X",)\n\ndef broken(:\n    pass\n',
        }),
      )
      expect(result.status).toBe('success')
      if (result.status !== 'success') return
      expect(result.warnings.some((w) => w.startsWith('Syntax error in a.py at line 4'))).toBe(true)
    })

    it('fails when no mapped class can be found, still listing the names', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py':
            'from comfy_extras.nodes import Thing\nNODE_CLASS_MAPPINGS = {"Thing": Thing}\n',
        }),
      )
      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.reason).toBe(
        'None of the 1 nodes in NODE_CLASS_MAPPINGS could be resolved to a class in the package',
      )
      expect(result.nodes.map((n) => n.comfy_node_name)).toEqual(['Thing'])
    })

    it('fails when the mappings cannot be resolved statically', async () => {
      const result = await extractComfyNodes(
        pack({ '__init__.py': 'from .loader import load\nNODE_CLASS_MAPPINGS = load()\n' }),
      )
      expect(result).toEqual({
        status: 'failed',
        reason: 'NODE_CLASS_MAPPINGS in __init__.py could not be resolved statically',
        nodes: [],
        importedModules: ['__init__.py'],
      })
    })

    it('fails when registration cannot be followed, saying why', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': [
            'import os, importlib',
            'NODE_CLASS_MAPPINGS = {}',
            'for name in os.listdir(os.path.expanduser("~/nodes")):',
            '    NODE_CLASS_MAPPINGS.update(importlib.import_module(name).NODE_CLASS_MAPPINGS)',
          ].join('\n'),
        }),
      )
      expect(result).toEqual({
        status: 'failed',
        reason:
          'NODE_CLASS_MAPPINGS in __init__.py resolves to no nodes (NODE_CLASS_MAPPINGS may be ' +
          'incomplete: __init__.py:3: a for loop over a value that is not statically known)',
        nodes: [],
        importedModules: ['__init__.py'],
      })
    })

    it('fails past the time budget', async () => {
      const result = await extractComfyNodes(
        pack({
          '__init__.py': [
            'NODE_CLASS_MAPPINGS = {}',
            'for i in range(10000):',
            '    for j in range(10000):',
            '        x = i * j',
          ].join('\n'),
        }),
        { maxMs: 100 },
      )
      expect(result).toEqual({
        status: 'failed',
        reason: 'Extracting the node definitions took longer than the 100 ms budget',
        nodes: [],
        importedModules: null,
      })
    })
  })

  it('runs concurrent extractions on the shared parser', async () => {
    const [a, b] = await Promise.all([
      extractComfyNodes(fixture('single-file')),
      extractComfyNodes(fixture('package')),
    ])
    expect(succeeded(a)).toHaveLength(2)
    expect(succeeded(b)).toHaveLength(6)
  })
})
