// The API contract (openapi.yml at the repository root) loaded once. The app registers its
// routes from it; this module also answers "who may call this operation" from its security.
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { isVersion } from '../db/semver'

export const CONTRACT_PATH = path.join(__dirname, '..', '..', 'openapi.yml')

type SecurityRequirement = Record<string, string[]>

interface OperationObject {
  operationId: string
  tags?: string[]
  security?: SecurityRequirement[]
  requestBody?: { content?: Record<string, unknown> }
  /** Largest request body of this operation, when above the JSON default (DEFAULT_BODY_LIMIT_KB). */
  'x-body-limit-kb'?: number
  /** A `null` property of its JSON body means the property was not sent. */
  'x-null-means-absent'?: boolean
  /** A GET that changes state (today's registry's `GET /security-scan`): access-checked like a write. */
  'x-changes-state'?: boolean
  /** A hot public read whose anonymous answers are shared for a moment (http/public-cache.ts). */
  'x-public-cache'?: boolean
}

export interface OpenApiDocument {
  openapi: string
  paths: Record<string, Record<string, OperationObject | unknown>>
  security?: SecurityRequirement[]
  [key: string]: unknown
}

/**
 * - `public`: no bearer token is looked at (the publish call carries its token in the body).
 * - `optional`: anonymous is fine; a valid token identifies the caller (admins see more).
 * - `signedIn`: a valid bearer token is required.
 */
export type Access = 'public' | 'optional' | 'signedIn'

export interface OperationInfo {
  operationId: string
  method: string
  path: string
  tag: string
  access: Access
  /** A customer's API key (X-API-KEY) identifies the caller too (security `ApiKeyAuth`). */
  acceptsApiKey: boolean
  /** The media types its request body may have (none: it takes no body). */
  requestContentTypes: string[]
  /** Its largest JSON request body, in bytes. */
  bodyLimitBytes: number
  /** `null` properties of its body are dropped before validation (`x-null-means-absent`). */
  nullMeansAbsent: boolean
  /** A write, or a GET marked `x-changes-state`: the authorization matrix covers it. */
  changesState: boolean
  /** Anonymous answers are shared with identical requests for a moment (`x-public-cache`). */
  publicCache: boolean
}

/**
 * The contract's own string formats (`format:` in openapi.yml) and their checks, for the
 * server's validators: a rule a pattern cannot say plainly (numbers up to 2^64 − 1).
 */
/**
 * The operationId of a route registered from the contract: fastify-openapi-glue keeps it in the
 * route's schema, which fastify's types do not know about.
 */
export function routeOperationId(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !('operationId' in schema)) return undefined
  return typeof schema.operationId === 'string' ? schema.operationId : undefined
}

export const CONTRACT_FORMATS = {
  semver: { type: 'string', validate: isVersion },
  'semver-or-latest': {
    type: 'string',
    validate: (text: string) => text === 'latest' || isVersion(text),
  },
} as const

/** JSON request bodies are small; an operation may allow more with `x-body-limit-kb`. */
export const DEFAULT_BODY_LIMIT_KB = 64

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch'])

export function loadContract(file = CONTRACT_PATH): OpenApiDocument {
  return parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument
}

function accessOf(security: SecurityRequirement[] | undefined): Access {
  if (!security || security.length === 0) return 'public'
  const anonymousAllowed = security.some((requirement) => Object.keys(requirement).length === 0)
  return anonymousAllowed ? 'optional' : 'signedIn'
}

export function listOperations(document: OpenApiDocument): OperationInfo[] {
  const operations: OperationInfo[] = []
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue
      const operation = value as OperationObject
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: route,
        tag: operation.tags?.[0] ?? 'other',
        access: accessOf(operation.security ?? document.security),
        acceptsApiKey: (operation.security ?? document.security ?? []).some(
          (requirement) => 'ApiKeyAuth' in requirement,
        ),
        requestContentTypes: Object.keys(operation.requestBody?.content ?? {}),
        bodyLimitBytes: (operation['x-body-limit-kb'] ?? DEFAULT_BODY_LIMIT_KB) * 1024,
        nullMeansAbsent: operation['x-null-means-absent'] === true,
        changesState: method !== 'get' || operation['x-changes-state'] === true,
        publicCache: method === 'get' && operation['x-public-cache'] === true,
      })
    }
  }
  return operations
}

let loaded: OpenApiDocument | undefined

/** A string schema's rule from `components.schemas` of openapi.yml (read once). */
export function stringRule(name: string): { pattern: RegExp; maxLength: number } {
  loaded ??= loadContract()
  const components = loaded.components
  const schemas =
    typeof components === 'object' && components !== null && 'schemas' in components
      ? components.schemas
      : undefined
  const schema =
    typeof schemas === 'object' && schemas !== null && name in schemas
      ? (schemas as Record<string, { pattern?: unknown; maxLength?: unknown }>)[name]
      : undefined
  if (typeof schema?.pattern !== 'string' || typeof schema.maxLength !== 'number') {
    throw new Error(`openapi.yml has no string schema '${name}' with a pattern and a maxLength`)
  }
  return { pattern: new RegExp(schema.pattern), maxLength: schema.maxLength }
}
