// The newer node style: `define_schema` returns `io.Schema(...)`. The calls into ComfyUI's `io`
// module are opaque to the evaluator but keep their arguments, which is all that is needed to
// rebuild what ComfyUI would report for the node (see `create_input_dict_v1` in comfy_api).
import {
  DYNAMIC,
  NONE,
  bool,
  dictSet,
  list,
  newDict,
  str,
  truthy,
  type PyCall,
  type PyDict,
  type PyExternal,
  type PyValue,
} from './values'

export interface SchemaNode {
  nodeId: string | null
  displayName: string
  category: string
  description: string
  inputs: PyDict
  returnTypes: PyValue[]
  returnNames: PyValue[]
  outputIsList: boolean[]
  deprecated: boolean
  experimental: boolean
  warnings: string[]
}

// comfy_api's type classes whose io_type is not simply the class name in UPPER_SNAKE_CASE.
const IO_TYPES: Record<string, string> = {
  AnyType: '*',
  MultiCombo: 'COMBO',
  Load3DCamera: 'LOAD3D_CAMERA',
  Load3DModelInfo: 'LOAD3D_MODEL_INFO',
  Load3D: 'LOAD_3D',
  Load3DAnimation: 'LOAD_3D_ANIMATION',
  File3DAny: 'FILE_3D',
  File3DGLB: 'FILE_3D_GLB',
  File3DGLTF: 'FILE_3D_GLTF',
  File3DFBX: 'FILE_3D_FBX',
  File3DOBJ: 'FILE_3D_OBJ',
  File3DSTL: 'FILE_3D_STL',
  File3DUSDZ: 'FILE_3D_USDZ',
  File3DPLY: 'FILE_3D_PLY',
  File3DSPLAT: 'FILE_3D_SPLAT',
  File3DSPZ: 'FILE_3D_SPZ',
  File3DKSPLAT: 'FILE_3D_KSPLAT',
  File3DSplatAny: 'FILE_3D_SPLAT_ANY',
  File3DPointCloudAny: 'FILE_3D_POINT_CLOUD_ANY',
  SVG: 'SVG',
  BBOX: 'BBOX',
  SEGS: 'SEGS',
  MultiType: 'COMFY_MULTITYPED_V3',
  MatchType: 'COMFY_MATCHTYPE_V3',
  Autogrow: 'COMFY_AUTOGROW_V3',
  DynamicCombo: 'COMFY_DYNAMICCOMBO_V3',
  DynamicSlot: 'COMFY_DYNAMICSLOT_V3',
}

// Enum members ComfyUI serialises by value.
const ENUM_VALUES: Record<string, Record<string, string>> = {
  NumberDisplay: { number: 'number', slider: 'slider', gradient_slider: 'gradientslider' },
  UploadType: {
    image: 'image_upload',
    audio: 'audio_upload',
    video: 'video_upload',
    model: 'file_upload',
  },
  FolderType: { input: 'input', output: 'output', temp: 'temp' },
  ControlAfterGenerate: {
    fixed: 'fixed',
    increment: 'increment',
    decrement: 'decrement',
    randomize: 'randomize',
  },
}

// Python keyword → key in ComfyUI's V1 input options, in the order ComfyUI emits them.
const OPTION_ORDER: [string, string][] = [
  ['display_name', 'display_name'],
  ['tooltip', 'tooltip'],
  ['lazy', 'lazy'],
  ['raw_link', 'rawLink'],
  ['advanced', 'advanced'],
  ['default', 'default'],
  ['socketless', 'socketless'],
  ['widget_type', 'widgetType'],
  ['force_input', 'forceInput'],
  ['min', 'min'],
  ['max', 'max'],
  ['step', 'step'],
  ['round', 'round'],
  ['label_on', 'label_on'],
  ['label_off', 'label_off'],
  ['multiline', 'multiline'],
  ['placeholder', 'placeholder'],
  ['dynamic_prompts', 'dynamicPrompts'],
  ['multiselect', 'multiselect'],
  ['options', 'options'],
  ['control_after_generate', 'control_after_generate'],
  ['upload', 'upload'],
  ['image_folder', 'image_folder'],
  ['remote', 'remote'],
  ['remote_combo', 'remote_combo'],
  ['display_mode', 'display'],
  ['gradient_stops', 'gradient_stops'],
]
const HANDLED = new Set(['id', 'optional', 'extra_dict', 'chip', 'types', 'template'])

function camelToUpperSnake(name: string): string {
  let out = ''
  for (let i = 0; i < name.length; i++) {
    const c = name[i]
    const previous = name[i - 1] ?? ''
    const next = name[i + 1] ?? ''
    const isUpper = c >= 'A' && c <= 'Z'
    const boundary =
      i > 0 &&
      isUpper &&
      ((previous >= 'a' && previous <= 'z') ||
        (previous >= '0' && previous <= '9') ||
        (previous >= 'A' && previous <= 'Z' && next >= 'a' && next <= 'z'))
    out += (boundary ? '_' : '') + c.toUpperCase()
  }
  return out
}

const last = (path: string[], offset = 1) => path[path.length - offset] ?? ''

/** The io_type behind `io.Float.Input`, `io.Custom("X").Output`, …; null when unknown. */
function ioTypeOf(callee: PyExternal): string | null {
  if (callee.path.length >= 2) {
    const name = last(callee.path, 2)
    return IO_TYPES[name] ?? camelToUpperSnake(name)
  }
  const origin = callee.origin
  if (origin && last(origin.callee.path) === 'Custom' && origin.args[0]?.kind === 'str') {
    return origin.args[0].value
  }
  return null
}

function enumValue(value: PyValue): PyValue {
  if (value.kind !== 'external' || value.origin) return value
  const known = ENUM_VALUES[last(value.path, 2)]?.[last(value.path)]
  return known === undefined ? value : str(known)
}

function isCall(value: PyValue, name: string): value is PyCall {
  return value.kind === 'call' && last(value.callee.path) === name
}

/** Positional and keyword arguments by parameter name. */
function argumentsOf(call: PyCall, positional: string[]): Map<string, PyValue> {
  const args = new Map<string, PyValue>()
  call.args.forEach((value, i) => {
    if (positional[i]) args.set(positional[i], value)
  })
  for (const [name, value] of call.kwargs) args.set(name, value)
  return args
}

const text = (value: PyValue | undefined) => (value?.kind === 'str' ? value.value : '')

function describe(value: PyValue): string {
  if (value.kind === 'call') return `${value.callee.path.join('.')}(…)`
  return value.kind
}

function convertInput(input: PyValue, result: PyDict, warnings: string[]): void {
  if (!isCall(input, 'Input')) {
    warnings.push(`an input is not statically known (${describe(input)})`)
    return
  }
  const typeName = input.callee.path.length >= 2 ? last(input.callee.path, 2) : ''
  const isCombo = typeName === 'Combo' || typeName === 'MultiCombo'
  const positional = isCombo
    ? ['id', 'options', 'display_name', 'optional', 'tooltip', 'lazy', 'default']
    : typeName === 'MultiType'
      ? ['id', 'types', 'display_name', 'optional', 'tooltip', 'lazy']
      : typeName === 'MatchType'
        ? ['id', 'template', 'display_name', 'optional', 'tooltip', 'lazy']
        : ['id', 'display_name', 'optional', 'tooltip', 'lazy']
  const args = argumentsOf(input, positional)
  const id = args.get('id')
  if (id?.kind !== 'str') {
    warnings.push(`an input of type ${typeName || '?'} has no static id`)
    return
  }
  let ioType = ioTypeOf(input.callee)
  if (typeName === 'MultiType') {
    const types = args.get('types')
    const names =
      types?.kind === 'list'
        ? types.items.map((t) =>
            t.kind === 'external' && t.path.length
              ? (IO_TYPES[last(t.path)] ?? camelToUpperSnake(last(t.path)))
              : null,
          )
        : [null]
    ioType = names.every((n) => n !== null) ? [...new Set(names)].join(',') : null
  }
  const options = newDict()
  const extra = args.get('extra_dict')
  const put = (key: string, value: PyValue) => {
    const v = enumValue(value)
    // ComfyUI prunes None values.
    if (v.kind !== 'none') dictSet(options, str(key), v)
  }
  const add = (pythonName: string, key: string) => {
    const value = args.get(pythonName)
    if (pythonName === 'upload') {
      const upload = value && enumValue(value)
      if (upload?.kind === 'str') put(upload.value, bool(true))
      else if (upload && upload.kind !== 'none') put('upload', upload)
      return
    }
    if (pythonName === 'multiselect' && isCombo) {
      put(key, bool(typeName === 'MultiCombo'))
      return
    }
    if (value) put(key, value)
  }
  for (const [pythonName, key] of OPTION_ORDER.slice(0, 5)) add(pythonName, key)
  if (extra?.kind === 'dict') {
    for (const { key, value } of extra.entries.values())
      if (value.kind !== 'none') dictSet(options, key, value)
  }
  for (const [pythonName, key] of OPTION_ORDER.slice(5)) {
    if (typeName === 'MultiCombo' && pythonName === 'placeholder') continue
    add(pythonName, key)
  }
  if (typeName === 'MultiCombo') {
    const multi = newDict()
    for (const name of ['placeholder', 'chip']) {
      const value = args.get(name)
      if (value && value.kind !== 'none') dictSet(multi, str(name), value)
    }
    dictSet(options, str('multi_select'), multi)
  }
  const known = new Set(OPTION_ORDER.map(([name]) => name))
  for (const [name, value] of args) {
    if (!known.has(name) && !HANDLED.has(name)) put(name, value)
  }
  const section = truthy(args.get('optional') ?? bool(false)) === true ? 'optional' : 'required'
  let group = result.entries.get(`s${section}`)?.value
  if (group?.kind !== 'dict') {
    group = newDict()
    dictSet(result, str(section), group)
  }
  dictSet(group, id, list([ioType === null ? DYNAMIC : str(ioType), options], true))
}

/** Converts the value `define_schema` returned; null when it is not an `io.Schema(...)` call. */
export function schemaNode(schema: PyValue): SchemaNode | null {
  if (!isCall(schema, 'Schema')) return null
  const args = argumentsOf(schema, ['node_id', 'display_name', 'category', 'inputs', 'outputs'])
  const warnings: string[] = []
  const inputs = newDict()
  dictSet(inputs, str('required'), newDict())
  const inputList = args.get('inputs') ?? list([])
  if (inputList.kind === 'list') {
    for (const input of inputList.items) convertInput(input, inputs, warnings)
    if (inputList.incomplete) warnings.push('the inputs list is not fully statically known')
  } else if (inputList.kind !== 'none') {
    warnings.push('the inputs are not statically known')
  }
  const returnTypes: PyValue[] = []
  const returnNames: PyValue[] = []
  const outputIsList: boolean[] = []
  const outputList = args.get('outputs') ?? list([])
  if (outputList.kind === 'list') {
    for (const output of outputList.items) {
      if (!isCall(output, 'Output')) {
        warnings.push(`an output is not statically known (${describe(output)})`)
        returnTypes.push(DYNAMIC)
        returnNames.push(DYNAMIC)
        outputIsList.push(false)
        continue
      }
      const typeName = output.callee.path.length >= 2 ? last(output.callee.path, 2) : ''
      const positional =
        typeName === 'Combo'
          ? ['id', 'display_name', 'options', 'tooltip', 'is_output_list']
          : typeName === 'MatchType'
            ? ['template', 'id', 'display_name', 'tooltip', 'is_output_list']
            : ['id', 'display_name', 'tooltip', 'is_output_list']
      const outArgs = argumentsOf(output, positional)
      const ioType = ioTypeOf(output.callee)
      const name =
        text(outArgs.get('display_name')) ||
        text(outArgs.get('id')) ||
        (typeName === 'MatchType' ? 'MATCHTYPE' : ioType)
      returnTypes.push(ioType === null ? DYNAMIC : str(ioType))
      returnNames.push(name ? str(name) : DYNAMIC)
      outputIsList.push(truthy(outArgs.get('is_output_list') ?? NONE) === true)
    }
    if (outputList.incomplete) warnings.push('the outputs list is not fully statically known')
  } else if (outputList.kind !== 'none') {
    warnings.push('the outputs are not statically known')
  }
  const nodeId = args.get('node_id')
  return {
    nodeId: nodeId?.kind === 'str' ? nodeId.value : null,
    displayName: text(args.get('display_name')),
    category: text(args.get('category')),
    description: text(args.get('description')),
    inputs,
    returnTypes,
    returnNames,
    outputIsList,
    deprecated: truthy(args.get('is_deprecated') ?? NONE) === true,
    experimental: truthy(args.get('is_experimental') ?? NONE) === true,
    warnings,
  }
}
