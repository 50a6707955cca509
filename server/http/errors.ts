// Every error the API sends has the shape `{ error, message }` (ErrorResponse in openapi.yml).
// Handlers throw HttpError; the app's error handler turns it into that JSON with its status.

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, 'Bad Request', message)
export const unauthorized = (message = 'Sign in first: this call needs a valid bearer token.') =>
  new HttpError(401, 'Unauthorized', message)
export const forbidden = (message = 'You are not allowed to do this.') =>
  new HttpError(403, 'Forbidden', message)
export const notFound = (message: string) => new HttpError(404, 'Not Found', message)
export const conflict = (message: string) => new HttpError(409, 'Conflict', message)
export const notImplemented = (operationId: string) =>
  new HttpError(
    501,
    'Not Implemented',
    `${operationId} is part of the API contract but is not implemented on this server yet.`,
  )
export const payloadTooLarge = (message: string) => new HttpError(413, 'Payload Too Large', message)
export const badGateway = (message: string) => new HttpError(502, 'Bad Gateway', message)
