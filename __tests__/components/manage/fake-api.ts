// A fake registry API at the axios level: the shared axios instance's adapter answers from a
// route table ("METHOD /path") and records every request, so components run their real hooks.
import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios'
import { getAxiosInstance } from '@/src/api/mutator'

export interface FakeRequest {
  method: string
  url: string
  params?: Record<string, unknown>
  body?: unknown
}

export interface FakeResponse {
  status: number
  data?: unknown
}

type Route = FakeResponse | ((request: FakeRequest) => FakeResponse | Promise<FakeResponse>)

/** The answers by "METHOD /path". */
export type FakeRoutes = Record<string, Route>

export function fakeApi(routes: FakeRoutes) {
  const requests: FakeRequest[] = []
  const adapter = async (config: InternalAxiosRequestConfig) => {
    const request: FakeRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      params: config.params as Record<string, unknown> | undefined,
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    }
    requests.push(request)
    const route = routes[`${request.method} ${request.url}`]
    const answer: FakeResponse = !route
      ? { status: 404, data: { error: 'NotFound', message: `No fake route ${request.url}` } }
      : typeof route === 'function'
        ? await route(request)
        : route
    const response = {
      data: answer.data,
      status: answer.status,
      statusText: String(answer.status),
      headers: new AxiosHeaders(),
      config,
    }
    if (answer.status >= 400) {
      throw new AxiosError(
        `Request failed with status code ${answer.status}`,
        AxiosError.ERR_BAD_REQUEST,
        config,
        null,
        response,
      )
    }
    return response
  }
  // Installed before any request of the test can run: requests wait for the same instance, and
  // callbacks of one promise run in the order they were added.
  void getAxiosInstance().then((axios) => {
    axios.defaults.adapter = adapter
  })
  return {
    requests,
    /** The requests of one method and path. */
    calls: (method: string, url: string) =>
      requests.filter((request) => request.method === method && request.url === url),
  }
}
