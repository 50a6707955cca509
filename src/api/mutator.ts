import Axios, { type AxiosError, type AxiosRequestConfig } from 'axios'
import { publicEnv, serverApiUrl } from '@/src/lib/public-env'

/** The one axios instance every generated call goes through. */
export const AXIOS_INSTANCE = Axios.create({
  // Arrays as repeated keys: statuses=A&statuses=B
  paramsSerializer: { indexes: null },
})

// The base URL is read per request: the browser gets it from the page, the server from its env.
AXIOS_INSTANCE.interceptors.request.use((config) => {
  config.baseURL ??= typeof window === 'undefined' ? serverApiUrl() : publicEnv().apiUrl
  return config
})

/** Orval mutator: performs the request and resolves with the response body. */
export const customInstance = <T>(
  config: AxiosRequestConfig,
  options?: AxiosRequestConfig,
): Promise<T> => {
  const controller = new AbortController()
  const promise = AXIOS_INSTANCE({
    signal: controller.signal,
    ...config,
    ...options,
  }).then(({ data }) => data as T)

  // React Query calls `cancel` when a query is cancelled.
  ;(promise as Promise<T> & { cancel?: () => void }).cancel = () => controller.abort()

  return promise
}

export type ErrorType<E> = AxiosError<E>

export type BodyType<B> = B
