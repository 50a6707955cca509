// Security headers of every API answer, errors and unknown routes included. The API serves JSON,
// YAML and zip archives, never a page: nothing may run in it or frame it.
import helmet from 'helmet'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** The API's Content-Security-Policy directives: no content of any kind, never framed. */
const API_CSP_DIRECTIVES = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] }

/** The header as helmet writes it (directives joined by `;`). */
export const API_CONTENT_SECURITY_POLICY = Object.entries(API_CSP_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join(';')

/** Cache-Control of answers to requests that carried credentials. */
export const CREDENTIALED_CACHE_CONTROL = 'private, no-store'

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * True when the request carried credentials: a bearer token, or a write, whose token may travel
 * in the body (`personal_access_token` of a publish) or the path (an upload link).
 */
export function carriesCredentials(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || !READ_METHODS.has(request.method)
}

/**
 * helmet's headers, its middleware made once: @fastify/helmet made it again for every request
 * (5–15 µs of parsing its options each time: docs/ARCHITECTURE.md, "Security headers").
 */
const setSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: API_CSP_DIRECTIVES,
  },
  frameguard: { action: 'deny' },
  // Public answers (node lists, archives) are meant to be used by other sites and tools.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
})

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request.raw, reply.raw, (error?: unknown) =>
      done(error === undefined || error instanceof Error ? error : new Error(String(error))),
    )
  })
  // Last word on caching: whatever a handler set (e.g. an archive's public caching), an answer
  // for someone's credentials is never stored by a browser or anything on the way. Anonymous
  // answers keep their own Cache-Control.
  app.addHook('onSend', async (request, reply, payload) => {
    if (carriesCredentials(request)) reply.header('cache-control', CREDENTIALED_CACHE_CONTROL)
    return payload
  })
}
