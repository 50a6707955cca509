// The exact bytes of a GitHub webhook's body. GitHub signs the bytes it sends, and re-serialising
// the parsed JSON would not give them back (key order, spacing, escapes), so a preParsing hook of
// `POST /releases` reads the body into a Buffer first, keeps it for the handler, and hands
// fastify's JSON parser a fresh stream of the same bytes.
import { Readable } from 'node:stream'
import {
  errorCodes,
  type FastifyInstance,
  type FastifyRequest,
  type preParsingHookHandler,
} from 'fastify'
import { DEFAULT_BODY_LIMIT_KB } from '../http/contract'

/** The routes whose raw body is kept: GitHub's `release` webhook. */
const CAPTURED = { method: 'POST', url: '/releases' } as const

const rawBodies = new WeakMap<FastifyRequest, Buffer>()

/** The body of `request` as it arrived, if it was captured (only `POST /releases`). */
export function rawBodyOf(request: FastifyRequest): Buffer | undefined {
  return rawBodies.get(request)
}

/**
 * Reads the payload up to the route's body limit. Beyond it, reading stops (the listeners are
 * removed, as fastify's own parser does) and fastify's 413 error is thrown: the app answers it
 * with its usual message and closes the connection.
 */
const captureRawBody: preParsingHookHandler = async (request, _reply, payload) => {
  const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_KB * 1024
  if (Number(request.headers['content-length'] ?? 0) > limit) {
    throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
  }
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    const stop = () => {
      payload.removeListener('data', onData)
      payload.removeListener('end', onEnd)
      payload.removeListener('error', onError)
    }
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      length += bytes.length
      if (length > limit) {
        stop()
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
        return
      }
      chunks.push(bytes)
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks, length))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    payload.on('data', onData)
    payload.on('end', onEnd)
    payload.on('error', onError)
    payload.resume()
  })
  rawBodies.set(request, body)
  // Not in object mode: fastify's parser reads Buffers and checks their length against
  // Content-Length (receivedEncodedLength: the bytes that arrived, the same ones).
  const copy = Readable.from([body], { objectMode: false })
  return Object.assign(copy, { receivedEncodedLength: body.length })
}

/**
 * Keeps the raw body of `POST /releases` (rawBodyOf). Call it after the app's own `onRoute` hook
 * and before the routes are registered: this hook then runs after the media type check.
 */
export function registerRawBodyCapture(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat()
    if (route.url !== CAPTURED.url || !methods.includes(CAPTURED.method)) return
    route.preParsing = [...[route.preParsing ?? []].flat(), captureRawBody]
  })
}
