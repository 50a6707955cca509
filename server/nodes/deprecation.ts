// Deprecating a version or a whole node (with a message saying why and what to use instead),
// and undoing it. One rule for both (openapi.yml, UpdateNodeRequest / UpdateNodeVersionRequest):
// the message goes with `deprecated: true` or edits a deprecation in place; `deprecated: false`
// clears it, so a node or version that is not deprecated always carries ''.
import { invalidField, text } from '../http/validate'

export interface DeprecationState {
  deprecated: boolean
  deprecationMessage: string
}

export interface DeprecationRequest {
  deprecated?: boolean
  deprecation_message?: string
}

/** The columns to write for a request, {} when it touches neither field; throws a 400. */
export function deprecationChange(
  current: DeprecationState,
  body: DeprecationRequest,
): Partial<DeprecationState> {
  const message = text(body.deprecation_message)
  if (body.deprecated === false) {
    if (message) {
      throw invalidField(
        'deprecation_message',
        'a message goes with deprecated: true; undoing a deprecation clears it.',
      )
    }
    return { deprecated: false, deprecationMessage: '' }
  }
  if (body.deprecated === true) {
    // Deprecating again without a message keeps the one already there.
    return { deprecated: true, deprecationMessage: message ?? current.deprecationMessage }
  }
  if (message === undefined) return {}
  if (!current.deprecated) {
    throw invalidField(
      'deprecation_message',
      'it is not deprecated; send deprecated: true with the message.',
    )
  }
  return { deprecationMessage: message }
}
