/**
 * The drift test: openapi.yml, the registered routes and the handler map must agree, operations
 * without a handler answer 501, and the implemented reads answer exactly the contract's shapes.
 */
import fs from 'node:fs'
import Ajv, { type ValidateFunction } from 'ajv'
import { parse } from 'yaml'
import type { Schemas } from './operations'
import { buildApp } from './app'
import {
  CONTRACT_FORMATS,
  CONTRACT_PATH,
  listOperations,
  loadContract,
  type OperationInfo,
} from './contract'
import { handlerFor } from './operations'
import { handlers } from './handlers'
import { attachDemoMembership } from '../seed/accounts'
import { createToken } from '../tokens/tokens'
import { openAccount, recordEvent } from '../customers/accounts'
import { createApiKey } from '../customers/api-keys'
import { ciWorkflowResults } from '../db/schema'
import { firebaseTokenVerifier } from '../auth/verifier'
import {
  bearer,
  signUpUser,
  signUpVerifiedUser,
  TEST_PROJECT_ID,
  type TestUser,
} from '../test/auth'
import { BACKENDS, createTestApp, get, request, type TestApp } from '../test/harness'

type Node = Schemas['Node']
type NodeVersion = Schemas['NodeVersion']

jest.setTimeout(60_000)

const contract = loadContract()
const operations = listOperations(contract)

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Follows a local `$ref` ('#/components/…') in the contract. */
function resolveRef(value: unknown): unknown {
  let current = value
  for (let depth = 0; isObject(current) && typeof current.$ref === 'string'; depth++) {
    if (depth > 10) throw new Error('$ref loop')
    const pointer = current.$ref.replace(/^#\//, '').split('/')
    let target: unknown = contract
    for (const key of pointer) target = isObject(target) ? target[key] : undefined
    current = target
  }
  return current
}

function operationObject(op: OperationInfo): Json {
  const item = contract.paths[op.path]
  const value = isObject(item) ? item[op.method.toLowerCase()] : undefined
  if (!isObject(value)) throw new Error(`no operation object for ${op.method} ${op.path}`)
  return value
}

const UUID = '3f1c2a9e-8b7d-4c6e-9f01-23456789abcd'

// ---------------------------------------------------------------------------------------------
// OpenAPI 3.0 schemas → JSON Schema (draft-07) for Ajv

/** `nullable`, local `$ref`s; objects with listed properties get additionalProperties: false. */
function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema)
  if (!isObject(value)) return value
  const out: Json = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === 'nullable' || key === 'example' || key === 'discriminator') continue
    if (key === '$ref' && typeof child === 'string') {
      out.$ref = child.replace('#/components/schemas/', 'contract#/definitions/')
      continue
    }
    out[key] =
      key === 'properties' && isObject(child)
        ? Object.fromEntries(Object.entries(child).map(([name, s]) => [name, toJsonSchema(s)]))
        : toJsonSchema(child)
  }
  // Strict casing: a field the contract does not name (say `created_at` on a NodeVersion) fails.
  if (isObject(out.properties) && out.additionalProperties === undefined && !out.allOf) {
    out.additionalProperties = false
  }
  if (value.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null']
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
      return out
    }
    return { anyOf: [{ type: 'null' }, out] }
  }
  return out
}

function createValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)) && /T/.test(text))
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
  ajv.addFormat('binary', true)
  ajv.addFormat('int64', true)
  ajv.addFormat('int32', true)
  for (const [name, format] of Object.entries(CONTRACT_FORMATS)) ajv.addFormat(name, format)
  const schemas = isObject(contract.components) ? contract.components.schemas : undefined
  ajv.addSchema({ $id: 'contract', definitions: toJsonSchema(schemas) })
  const cache = new Map<string, ValidateFunction>()
  return (op: OperationInfo, status: number): ValidateFunction => {
    const key = `${op.operationId} ${status}`
    const cached = cache.get(key)
    if (cached) return cached
    const responses = operationObject(op).responses
    const response = resolveRef(isObject(responses) ? responses[String(status)] : undefined)
    const content = isObject(response) ? response.content : undefined
    const media = isObject(content) ? content['application/json'] : undefined
    const schema = isObject(media) ? media.schema : undefined
    if (!schema) throw new Error(`${op.operationId} has no JSON schema for ${status}`)
    const validate = ajv.compile(toJsonSchema(schema) as Json)
    cache.set(key, validate)
    return validate
  }
}

const byId = new Map(operations.map((op) => [op.operationId, op]))
function operation(operationId: string): OperationInfo {
  const op = byId.get(operationId)
  if (!op) throw new Error(`no operation ${operationId} in openapi.yml`)
  return op
}

// ---------------------------------------------------------------------------------------------

describe('contract ↔ handlers', () => {
  it('has unique operationIds', () => {
    const ids = operations.map((op) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true)
  })

  it('every handler belongs to an operation of openapi.yml', () => {
    const unknown = Object.keys(handlers).filter((id) => !byId.has(id))
    expect(unknown).toEqual([])
  })

  it('the response validator rejects wrong casing, missing fields and bad enums', () => {
    const validate = createValidator()(operation('getNodeVersion'), 200)
    const version = {
      id: '3f1c2a9e-8b7d-4c6e-9f01-23456789abcd',
      version: '1.0.0',
      createdAt: '2026-01-01T00:00:00.000Z',
      status: 'NodeVersionStatusActive',
      node_id: 'some-node',
    }
    expect(validate(version)).toBe(true)
    const { createdAt, ...withoutCreatedAt } = version
    expect(validate({ ...withoutCreatedAt, created_at: createdAt })).toBe(false)
    expect(validate({ ...version, downloadURL: 'x' })).toBe(false)
    expect(validate({ ...version, status: 'Active' })).toBe(false)
  })

  it('keeps the wire facts real clients depend on (design.md §5)', () => {
    const schemas = (contract.components as Json).schemas as Record<string, Json>
    const node = schemas.Node
    const properties = node.properties as Record<string, Json>
    // comfy-cli crashes on `"latest_version": null`; the Manager reads node.publisher.name.
    expect(properties.latest_version.nullable).toBeUndefined()
    expect(node.required).toEqual(expect.arrayContaining(['publisher']))
    expect(schemas.Publisher.required).toEqual(expect.arrayContaining(['id', 'name']))
    // Only the Node schema describes nodes, so every answer that holds nodes obeys the above.
    const withLatest = Object.entries(schemas)
      .filter(([, schema]) => isObject(schema.properties) && 'latest_version' in schema.properties)
      .map(([name]) => name)
    expect(withLatest).toEqual(['Node'])
    expect(JSON.stringify(contract)).not.toMatch(/"latest_version":\{[^}]*"nullable":true/)
    // Status filters never refuse: the version lists declare no 403.
    for (const id of ['listNodeVersions', 'listAllNodeVersions']) {
      expect({
        id,
        responses: Object.keys(operationObject(operation(id)).responses as Json),
      }).toEqual({ id, responses: expect.not.arrayContaining(['403']) })
    }
  })

  it('the OpenAPI → JSON Schema conversion handles nullable and $ref', () => {
    expect(toJsonSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] })
    expect(toJsonSchema({ nullable: true, allOf: [{ $ref: '#/components/schemas/X' }] })).toEqual({
      anyOf: [{ type: 'null' }, { allOf: [{ $ref: 'contract#/definitions/X' }] }],
    })
  })
})

describe.each(BACKENDS)('the API against its contract on %s', (backend) => {
  let h: TestApp
  let admin: TestUser
  let owner: TestUser
  let customerId: string
  let workflowResultId: string
  const validatorFor = createValidator()

  beforeAll(async () => {
    h = await createTestApp({ postgres: backend === 'postgres' })
    ;[admin, owner] = await Promise.all([signUpVerifiedUser(h.adminEmail), signUpUser()])
    await attachDemoMembership(h.db, owner.uid, owner.email, 'Owner')
    // One token that expires and one that does not, so both shapes of the list are checked.
    await createToken(h.db, 'comfy-demo', { name: 'ci', description: '', expiresInDays: 30 })
    await createToken(h.db, 'comfy-demo', { name: 'cli', description: 'x', expiresInDays: null })
    // The owner's credit account, with a top-up and a key, for the customers' shapes.
    customerId = (await openAccount(h.db, owner.uid)).customer.id
    await recordEvent(h.db, customerId, {
      type: 'credit_added',
      amountMicros: 5_000_000,
      description: 'Top-up',
    })
    await createApiKey(h.db, customerId, { name: 'ComfyUI', description: '' })
    // One of the demo CI results (server/seed/ci.ts).
    const [result] = await h.db
      .select({ id: ciWorkflowResults.id })
      .from(ciWorkflowResults)
      .limit(1)
    workflowResultId = result.id
  })

  afterAll(async () => {
    await h?.close()
  })

  it('registers a route for every operation of openapi.yml', () => {
    // With ignoreTrailingSlash, fastify stores `/users/publishers/` without its trailing slash.
    const registered = (op: OperationInfo, url: string) =>
      h.app.hasRoute({ method: op.method as 'GET', url: url.replace(/\{(\w+)\}/g, ':$1') })
    const missing = operations.filter(
      (op) => !registered(op, op.path) && !registered(op, op.path.replace(/(.)\/$/, '$1')),
    )
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([])
  })

  it('answers 501 {error, message} for an operation that has no handler', async () => {
    const bare = await buildApp(
      {
        db: h.db,
        storage: h.storage,
        verifier: firebaseTokenVerifier(TEST_PROJECT_ID),
        config: h.config,
      },
      { handlers: {} },
    )
    try {
      for (const url of ['/health', `/nodes/${UUID.slice(0, 8)}`]) {
        const reply = await request<{ error?: string; message?: string }>(bare, {
          method: 'GET',
          url,
        })
        expect(reply.status).toBe(501)
        expect(reply.body).toEqual({
          error: 'Not Implemented',
          message: expect.stringMatching(/getHealth|getNode/),
        })
      }
    } finally {
      await bare.close()
    }
  })

  describe('response shapes', () => {
    const UPSCALER = 'comfyui-demo-upscaler'
    const FACE = 'comfyui-demo-face-restore'
    const PROMPT = 'comfyui-demo-prompt-tools'

    function comfyClass(nodeId: string): string {
      const node = h.demo.nodes.find((candidate) => candidate.id === nodeId)
      const comfy = h.demo.comfyNodes.find((c) => c.nodeVersionId === node?.latestVersionId)
      if (!comfy) throw new Error(`${nodeId} has no comfy nodes`)
      return comfy.comfyNodeName
    }

    type Case = [
      operationId: string,
      url: string,
      who: 'anonymous' | 'admin' | 'owner',
      status: number,
    ]
    const cases = (): Case[] => [
      ['listAllNodes', '/nodes?limit=100', 'anonymous', 200],
      ['listAllNodes', '/nodes?limit=100&include_banned=true', 'admin', 200],
      ['searchNodes', '/nodes/search?search=comfyui&limit=100', 'anonymous', 200],
      ['searchNodes', `/nodes/search?comfy_node_search=${comfyClass(UPSCALER)}`, 'anonymous', 200],
      ['suggestNodes', '/nodes/suggest?q=upsc', 'anonymous', 200],
      ['suggestNodes', `/nodes/suggest?q=${comfyClass(UPSCALER)}&limit=3`, 'anonymous', 200],
      ['suggestNodes', '/nodes/suggest?q=', 'anonymous', 400],
      ['getNode', `/nodes/${UPSCALER}`, 'anonymous', 200],
      ['getNode', '/nodes/no-such-node', 'anonymous', 404],
      ['getNodeDailyDownloads', `/nodes/${UPSCALER}/downloads/daily?days=90`, 'anonymous', 200],
      ['getNodeDailyDownloads', `/nodes/${UPSCALER}/downloads/daily?days=366`, 'anonymous', 400],
      ['getNodeDailyDownloads', '/nodes/no-such-node/downloads/daily', 'anonymous', 404],
      ['installNode', `/nodes/${FACE}/install`, 'anonymous', 200],
      ['listNodeVersions', `/nodes/${UPSCALER}/versions`, 'anonymous', 200],
      [
        'listNodeVersions',
        `/nodes/${PROMPT}/versions?statuses=NodeVersionStatusFlagged&statuses=NodeVersionStatusActive&include_status_reason=true`,
        'admin',
        200,
      ],
      [
        'listNodeVersions',
        `/nodes/${FACE}/versions?statuses=NodeVersionStatusActive&statuses=NodeVersionStatusPending`,
        'anonymous',
        200,
      ],
      ['getNodeVersion', `/nodes/${UPSCALER}/versions/latest`, 'anonymous', 200],
      ['getNodeVersion', `/nodes/${PROMPT}/versions/0.3.0`, 'owner', 200],
      ['listComfyNodes', `/nodes/${UPSCALER}/versions/latest/comfy-nodes`, 'anonymous', 200],
      [
        'getComfyNode',
        `/nodes/${UPSCALER}/versions/latest/comfy-nodes/${comfyClass(UPSCALER)}`,
        'anonymous',
        200,
      ],
      ['getNodeByComfyNodeName', `/comfy-nodes/${comfyClass(UPSCALER)}/node`, 'anonymous', 200],
      ['listAllComfyNodes', '/comfy-nodes?limit=20', 'anonymous', 200],
      [
        'listAllComfyNodes',
        `/comfy-nodes?node_id=${UPSCALER}&node_version=1.8.0`,
        'anonymous',
        200,
      ],
      ['listAllComfyNodes', '/comfy-nodes?node_version=1.8.0', 'anonymous', 400],
      ['getFeatures', '/features', 'anonymous', 200],
      ['listAllNodeVersions', '/versions?limit=50', 'anonymous', 200],
      [
        'listAllNodeVersions',
        '/versions?statuses=NodeVersionStatusFlagged&statuses=NodeVersionStatusPending&include_status_reason=true',
        'admin',
        200,
      ],
      ['listPublishers', '/publishers', 'anonymous', 200],
      ['getPublisher', '/publishers/comfy-demo', 'anonymous', 200],
      ['getPublisher', '/publishers/comfy-demo', 'owner', 200],
      ['listNodesForPublisher', '/publishers/comfy-demo/nodes', 'anonymous', 200],
      ['listNodesForPublisherV2', '/publishers/comfy-demo/nodes/v2?limit=3', 'anonymous', 200],
      ['validatePublisher', '/publishers/validate?username=comfy-demo', 'anonymous', 200],
      ['validatePublisher', '/publishers/validate?username=fresh-id', 'anonymous', 200],
      ['getUser', '/users', 'owner', 200],
      ['getPermissionOnPublisher', '/publishers/comfy-demo/permissions', 'owner', 200],
      ['getPermissionOnPublisher', '/publishers/no-such-publisher/permissions', 'owner', 404],
      [
        'getPermissionOnPublisherNodes',
        `/publishers/comfy-demo/nodes/${UPSCALER}/permissions`,
        'admin',
        200,
      ],
      ['listPersonalAccessTokens', '/publishers/comfy-demo/tokens', 'owner', 200],
      ['listPersonalAccessTokens', '/publishers/comfy-demo/tokens', 'anonymous', 401],
      ['getUser', '/users', 'admin', 200],
      ['getUser', '/users', 'anonymous', 401],
      ['listPublishersForUser', '/users/publishers/', 'owner', 200],
      ['listMyInvitations', '/users/invitations', 'owner', 200],
      ['listMyInvitations', '/users/invitations', 'anonymous', 401],
      ['getHealth', '/health', 'anonymous', 200],
      ['securityScan', '/security-scan?minAge=1h&maxNodes=5', 'admin', 200],
      ['securityScan', '/security-scan', 'owner', 403],
      [
        'listAllNodeVersions',
        '/versions?statuses=NodeVersionStatusPending&statuses=NodeVersionStatusFlagged&include_status_reason=true&publisher_id=comfy-demo&sort=oldest&created_after=2020-01-01T00:00:00Z',
        'admin',
        200,
      ],
      ['listAdminActions', '/admin/actions?limit=20', 'admin', 200],
      ['listAdminActions', '/admin/actions', 'owner', 403],
      ['listAdminActions', '/admin/actions', 'anonymous', 401],
      ['getAdminOverview', '/admin/overview', 'admin', 200],
      ['getAdminOverview', '/admin/overview', 'owner', 403],
      ['getNodeVersionReadme', `/nodes/${UPSCALER}/versions/1.8.0/readme`, 'anonymous', 200],
      ['getNodeVersionReadme', `/nodes/${UPSCALER}/versions/9.9.9/readme`, 'anonymous', 404],
      ['listAdminVersionFiles', `/admin/nodes/${UPSCALER}/versions/1.8.0/files`, 'admin', 200],
      ['listAdminVersionFiles', `/admin/nodes/${UPSCALER}/versions/1.8.0/files`, 'owner', 403],
      [
        'getAdminVersionFile',
        `/admin/nodes/${UPSCALER}/versions/1.8.0/file?path=pyproject.toml`,
        'admin',
        200,
      ],
      [
        'getAdminVersionFile',
        `/admin/nodes/${UPSCALER}/versions/1.8.0/file?path=no-such-file.py`,
        'admin',
        404,
      ],
      ['getAuthenticatedCustomer', '/customers/me', 'owner', 200],
      ['getCustomerBalance', '/customers/balance', 'owner', 200],
      ['getCustomerBalance', '/customers/balance', 'admin', 404],
      ['getCustomerEvents', '/customers/events?filter=credit_added', 'owner', 200],
      ['listCustomerApiKeys', '/customers/api-keys', 'owner', 200],
      ['listCustomers', '/customers?email=%40', 'admin', 200],
      ['getCustomerById', `/customers/${customerId}`, 'admin', 200],
      ['getCustomerById', `/customers/${customerId}`, 'owner', 403],
      ['getCustomerBalanceById', `/customers/${customerId}/balance`, 'admin', 200],
      ['getCustomerEventsById', `/customers/${customerId}/events`, 'admin', 200],
      ['listProxyLookups', '/admin/proxy-lookups', 'admin', 200],
      // The demo upscaler trusts a workflow; its publisher's trail tells how it was published.
      [
        'listTrustedPublishers',
        `/publishers/comfy-demo/nodes/${UPSCALER}/trusted-publishers`,
        'owner',
        200,
      ],
      ['listPublisherEvents', '/publishers/comfy-demo/events?limit=5', 'owner', 200],
      ['listPublisherEvents', '/publishers/comfy-demo/events', 'anonymous', 401],
      ['listReleases', '/releases', 'anonymous', 200],
      ['getBranch', '/branch', 'anonymous', 200],
      ['getGitcommit', '/gitcommit?pageSize=50', 'anonymous', 200],
      ['getGitcommit', '/gitcommit?operatingSystem=macos&branch=master', 'anonymous', 200],
      ['getGitcommitsummary', '/gitcommitsummary?pageSize=50', 'anonymous', 200],
      ['getWorkflowResult', `/workflowresult/${workflowResultId}`, 'anonymous', 200],
      ['getWorkflowResult', '/workflowresult/not-an-id', 'anonymous', 404],
      ['listReleases', '/releases?project=comfyui&current_version=v0.3.40', 'anonymous', 200],
      [
        'listReleases',
        '/releases?project=desktop&current_version=0.4.0&form_factor=desktop-mac&locale=fr',
        'owner',
        200,
      ],
      ['listReleases', '/releases?current_version=latest', 'anonymous', 400],
      // No provider is configured here: each lookup answers 503 naming the variables to set
      // (server/proxy/routes.test.ts has them answering).
      ...operations
        .filter((op) => op.tag === 'proxy')
        .map((op): Case => {
          const url = op.path.replace('{id}', 'task-1')
          return [
            op.operationId,
            op.operationId.startsWith('minimax') ? `${url}?task_id=t1` : url,
            'owner',
            503,
          ]
        }),
    ]

    it('every implemented read answers the contract’s schema', async () => {
      const covered = new Set<string>()
      for (const [operationId, url, who, status] of cases()) {
        const op = operation(operationId)
        covered.add(operationId)
        const headers = who === 'admin' ? bearer(admin) : who === 'owner' ? bearer(owner) : {}
        const reply = await get<unknown>(h.app, url, headers)
        const where = `${operationId} ${url} as ${who}`
        expect({ where, status: reply.status }).toEqual({ where, status })
        expect(String(reply.response.headers['content-type'])).toContain('application/json')
        const validate = validatorFor(op, status)
        const valid = validate(reply.body)
        expect({ where, errors: valid ? null : validate.errors }).toEqual({ where, errors: null })
      }
      // Every implemented GET returning JSON is covered here.
      const jsonGets = operations.filter(
        (op) =>
          op.method === 'GET' &&
          handlerFor(handlers, op.operationId) &&
          // Files, not JSON (server/ci/ci.test.ts serves an output image; badges are SVG,
          // server/badges/badges.test.ts).
          ![
            'getOpenApi',
            'getMetrics',
            'downloadNodeVersionArchive',
            'getCiArtifact',
            'getNodeVersionFile',
            'getNodeVersionBadge',
            'getNodeDownloadsBadge',
          ].includes(op.operationId),
      )
      expect(jsonGets.map((op) => op.operationId).filter((id) => !covered.has(id))).toEqual([])
    })

    it('keeps the contract’s mixed casing', async () => {
      const node = (await get<Node>(h.app, `/nodes/${UPSCALER}`)).body
      expect(Object.keys(node)).toEqual(
        expect.arrayContaining([
          'latest_version',
          'created_at',
          'github_stars',
          'status_detail',
          'banner_url',
          'supported_os',
          'supported_accelerators',
        ]),
      )
      const latest = node.latest_version as NodeVersion
      expect(Object.keys(latest)).toEqual(
        expect.arrayContaining([
          'createdAt',
          'downloadUrl',
          'node_id',
          'comfy_node_extract_status',
          'supported_comfyui_version',
        ]),
      )
      expect(Object.keys(latest)).not.toContain('status_reason')
      const flagged = await get<NodeVersion[]>(
        h.app,
        `/nodes/${PROMPT}/versions?statuses=NodeVersionStatusFlagged&include_status_reason=true`,
        bearer(admin),
      )
      expect(Object.keys(flagged.body[0])).toEqual(
        expect.arrayContaining(['status_reason', 'scan_findings']),
      )
      const publisher = (await get<Json>(h.app, '/publishers/comfy-demo')).body
      expect(Object.keys(publisher)).toEqual(
        expect.arrayContaining(['createdAt', 'source_code_repo']),
      )
    })
  })

  describe('system', () => {
    it('GET /openapi serves the contract as YAML by default', async () => {
      const reply = await h.app.inject({ method: 'GET', url: '/openapi' })
      expect(reply.statusCode).toBe(200)
      expect(reply.headers['content-type']).toMatch(/^application\/yaml/)
      expect(reply.body).toBe(fs.readFileSync(CONTRACT_PATH, 'utf8'))
      expect(parse(reply.body)).toEqual(contract)
    })

    it('GET /openapi serves JSON with Accept: application/json', async () => {
      const reply = await h.app.inject({
        method: 'GET',
        url: '/openapi',
        headers: { accept: 'application/json' },
      })
      expect(reply.statusCode).toBe(200)
      expect(reply.headers['content-type']).toMatch(/^application\/json/)
      expect(reply.json()).toEqual(contract)
    })

    it('GET /health reports the database', async () => {
      const reply = await get(h.app, '/health')
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ status: 'ok', database: 'ok', latency_ms: expect.any(Number) })
    })
  })
})
