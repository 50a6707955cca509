// The inputs and outputs of a ComfyUI node class, read from the JSON texts the registry keeps
// (`input_types`: INPUT_TYPES, `return_types`: RETURN_TYPES, `return_names`: RETURN_NAMES).
// Extraction never runs the pack's code, so any value may be "<dynamic>" (computed at load
// time); text that is not the expected JSON gives undefined and the section is left out.

/** What the registry writes where the pack computes a value when ComfyUI loads it. */
export const DYNAMIC = '<dynamic>'

/** A socket's type: a ComfyUI type name, a list of choices, or computed when the pack loads. */
export type SocketType =
  { kind: 'type'; name: string } | { kind: 'choices'; count: number } | { kind: 'dynamic' }

export interface ComfyInput {
  name: string
  type: SocketType
  optional: boolean
}

export interface ComfyOutput {
  /** The output's name (RETURN_NAMES), when the pack gives one. */
  name?: string
  type: SocketType
}

function parse(text: string | undefined): unknown {
  if (!text?.trim()) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function typeOf(value: unknown): SocketType {
  if (typeof value === 'string' && value.trim() && value !== DYNAMIC) {
    return { kind: 'type', name: value }
  }
  // A combo: its first element is the list of choices.
  if (Array.isArray(value) && value.every((choice) => typeof choice !== 'object')) {
    return { kind: 'choices', count: value.length }
  }
  return { kind: 'dynamic' }
}

/** An input's spec is `[type, options?]` (a bare type is accepted too). */
function inputTypeOf(spec: unknown): SocketType {
  return typeOf(Array.isArray(spec) ? spec[0] : spec)
}

/** The required then optional inputs; undefined when `input_types` is not INPUT_TYPES. */
export function parseInputs(inputTypes: string | undefined): ComfyInput[] | undefined {
  const parsed = parse(inputTypes)
  if (!isRecord(parsed)) return undefined
  const inputs: ComfyInput[] = []
  for (const section of ['required', 'optional'] as const) {
    const entries = parsed[section]
    if (!isRecord(entries)) continue
    for (const [name, spec] of Object.entries(entries)) {
      inputs.push({ name, type: inputTypeOf(spec), optional: section === 'optional' })
    }
  }
  return inputs
}

/** The outputs with their names; undefined when `return_types` is not a list. */
export function parseOutputs(
  returnTypes: string | undefined,
  returnNames: string | undefined,
): ComfyOutput[] | undefined {
  const types = parse(returnTypes)
  if (!Array.isArray(types)) return undefined
  const names = parse(returnNames)
  return types.map((type, index) => {
    const name = Array.isArray(names) ? names[index] : undefined
    return {
      type: typeOf(type),
      ...(typeof name === 'string' && name.trim() && name !== DYNAMIC ? { name } : {}),
    }
  })
}
