// The one axios instance every generated call goes through, with the client rules of seed
// section 7: repeated-key array params, the bearer token, the no-cache request headers, and a
// signal after each successful write so cached queries of that path can be invalidated.
// axios itself is imported on the first request, not with the page: hydrating server-rendered
// data needs no HTTP client, so it stays out of every page's first-load JavaScript.
import type {
  AxiosError,
  AxiosInstance,
  AxiosRequestConfig,
  AxiosResponse,
  InternalAxiosRequestConfig,
} from 'axios'
import { hasSignedInHint } from '@/src/lib/auth-hint'
import { ID_TOKEN_STORAGE_KEY, NO_CACHE_REQUEST_HEADERS } from '@/src/lib/constants'
import { firebaseRequested, loadFirebase } from '@/src/lib/firebase-loader'
import { publicEnv, serverApiUrl } from '@/src/lib/public-env'

function readStoredToken(): string | null {
  try {
    return sessionStorage.getItem(ID_TOKEN_STORAGE_KEY)
  } catch {
    return null
  }
}

/**
 * The bearer token for a browser request: the current Firebase user's fresh ID token (saved to
 * session storage too); when nobody is signed in, the stored token. No token on the server.
 * Firebase is not loaded for this when nobody signed in on this browser (no hint) and nothing
 * else on the page loaded it: then there is no user to ask.
 */
export async function currentIdToken(): Promise<string | null> {
  if (typeof window === 'undefined') return null
  if (!hasSignedInHint() && !firebaseRequested()) return readStoredToken()
  const { getFirebaseAuth } = await loadFirebase()
  const auth = getFirebaseAuth()
  await auth.authStateReady()
  const user = auth.currentUser
  if (!user) return readStoredToken()
  const token = await user.getIdToken()
  try {
    sessionStorage.setItem(ID_TOKEN_STORAGE_KEY, token)
  } catch {
    // Storage unavailable: the token still goes with this request.
  }
  return token
}

/** Extra headers of a server-side request (set by src/lib/ssr.ts: the visitor's address). */
let serverRequestHeaders: () => Record<string, string> = () => ({})

/** Server only: where the headers of the page being rendered come from. */
export function setServerRequestHeaders(provider: () => Record<string, string>): void {
  serverRequestHeaders = provider
}

export async function prepareRequest(
  config: InternalAxiosRequestConfig,
): Promise<InternalAxiosRequestConfig> {
  // The base URL is read per request: the browser gets it from the page, the server from its env.
  config.baseURL ??= typeof window === 'undefined' ? serverApiUrl() : publicEnv().apiUrl
  for (const [name, value] of Object.entries(NO_CACHE_REQUEST_HEADERS)) {
    config.headers.set(name, value)
  }
  if (typeof window === 'undefined') {
    for (const [name, value] of Object.entries(serverRequestHeaders())) {
      config.headers.set(name, value)
    }
  }
  if (!config.headers.has('Authorization')) {
    const token = await currentIdToken()
    if (token) config.headers.set('Authorization', `Bearer ${token}`)
  }
  return config
}

/** A successful write, as seen by the invalidation rules. */
export interface WriteSuccess {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The request path without query string, e.g. `/publishers/acme/nodes/x`. */
  path: string
}

const WRITE_METHODS = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE'])
const writeListeners = new Set<(write: WriteSuccess) => void>()

/** Calls `listener` after every successful POST, PUT, PATCH or DELETE; returns unsubscribe. */
export function onWriteSuccess(listener: (write: WriteSuccess) => void): () => void {
  writeListeners.add(listener)
  return () => void writeListeners.delete(listener)
}

function announceWrite(response: AxiosResponse): AxiosResponse {
  const method = (response.config.method ?? 'get').toUpperCase()
  if (WRITE_METHODS.has(method) && response.config.url) {
    const path = response.config.url.split(/[?#]/)[0]
    for (const listener of writeListeners) {
      listener({ method: method as WriteSuccess['method'], path })
    }
  }
  return response
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Set on the second try of a request whose connection was dropped (see retryDropped). */
    droppedConnectionRetry?: boolean
  }
}

/** What Node reports when the other end closed a kept-alive connection before answering. */
const DROPPED_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE'])

/**
 * Server side, a GET whose kept-alive connection the API had closed (an API process restarted or
 * killed behind a load balancer) is sent once more, on a new connection: it changed nothing.
 * Writes, answered requests and browser requests are never repeated here.
 */
function retryDropped(axios: AxiosInstance) {
  return (error: AxiosError) => {
    const config = error.config
    const dropped =
      typeof window === 'undefined' &&
      config !== undefined &&
      !config.droppedConnectionRetry &&
      (config.method ?? 'get').toLowerCase() === 'get' &&
      error.response === undefined &&
      DROPPED_CONNECTION_CODES.has(error.code ?? '')
    if (!dropped) return Promise.reject(error)
    return axios({ ...config, droppedConnectionRetry: true })
  }
}

let instance: Promise<AxiosInstance> | undefined

/** The axios instance, created (and axios loaded) on first use. */
export function getAxiosInstance(): Promise<AxiosInstance> {
  // A named chunk: compile-hints.config.js has the browser compile it while it downloads.
  instance ??= import(/* webpackChunkName: "axios" */ 'axios').then(({ default: Axios }) => {
    const axios = Axios.create({
      // Arrays as repeated keys: statuses=A&statuses=B
      paramsSerializer: { indexes: null },
    })
    axios.interceptors.request.use(prepareRequest)
    axios.interceptors.response.use(announceWrite, retryDropped(axios))
    return axios
  })
  return instance
}

/** Orval mutator: performs the request and resolves with the response body. */
export const customInstance = <T>(
  config: AxiosRequestConfig,
  options?: AxiosRequestConfig,
): Promise<T> => {
  const controller = new AbortController()
  const promise = getAxiosInstance()
    .then((axios) => axios<T>({ signal: controller.signal, ...config, ...options }))
    .then(({ data }) => data)

  // React Query calls `cancel` when a query is cancelled.
  ;(promise as Promise<T> & { cancel?: () => void }).cancel = () => controller.abort()

  return promise
}

export type ErrorType<E> = AxiosError<E>

export type BodyType<B> = B
