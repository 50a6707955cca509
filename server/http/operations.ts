// Handlers typed by the contract: each operation's path parameters, query, JSON body and answer
// come from server/http/contract-types.ts, which openapi-typescript generates from openapi.yml
// (`npm run generate`; `npm run check:generated` fails when it is stale). The app validates every
// request against the same contract before a handler runs, so the types hold.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RequestContext } from './context'
import type { components, operations } from './contract-types'
import type { SerializedAnswer } from './serialized'

export type Schemas = components['schemas']
export type OperationId = keyof operations

/** `T` without `undefined`; an empty object where the contract has nothing (`?: never`). */
type Present<T> = [Exclude<T, undefined>] extends [never]
  ? Record<string, never>
  : Exclude<T, undefined>

type Parameters<Id extends OperationId> = operations[Id]['parameters']

export type PathOf<Id extends OperationId> = Present<Parameters<Id>['path']>
/** The query after validation: its defaults applied, absent parameters absent. */
export type QueryOf<Id extends OperationId> = Present<Parameters<Id>['query']>
/** The JSON body; other media types (an archive upload's stream) are `unknown`. */
export type BodyOf<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { 'application/json': infer Body } }
}
  ? Body
  : unknown

type Responses<Id extends OperationId> = operations[Id]['responses']
type JsonOf<Response> = Response extends { content: { 'application/json': infer Json } }
  ? Json
  : never
/** The JSON of the operation's 200 or 201 answer. */
export type ReplyOf<Id extends OperationId> = JsonOf<
  Responses<Id>[Extract<keyof Responses<Id>, 200 | 201>]
>

export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Params: PathOf<Id>
  Querystring: QueryOf<Id>
  Body: BodyOf<Id>
}>

export type OperationHandler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  reply: FastifyReply,
  context: RequestContext,
) => Promise<ReplyOf<Id> | SerializedAnswer<ReplyOf<Id>> | FastifyReply>

/** Handlers by operationId; an operation without one answers 501. */
export type HandlerMap = { [Id in OperationId]?: OperationHandler<Id> }

/** A handler as the app calls it, for whichever operation a route serves. */
export type RouteHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  context: RequestContext,
) => Promise<unknown>

function isOperationId(map: HandlerMap, operationId: string): operationId is OperationId {
  return Object.hasOwn(map, operationId)
}

/**
 * The handler of `operationId`, if there is one. The app has validated the request against this
 * operation's schemas before calling it, so the request has the shape OperationRequest describes:
 * this is the one place where that is asserted rather than checked by the compiler.
 */
export function handlerFor(map: HandlerMap, operationId: string): RouteHandler | undefined {
  return isOperationId(map, operationId) ? (map[operationId] as RouteHandler) : undefined
}
