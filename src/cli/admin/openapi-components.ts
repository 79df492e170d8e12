import { DELIVERY_STATUSES } from '#catalogue/index.js'
import { faultKinds } from '#faults/index.js'
import type { OpenApiFragment } from './admin-route.js'

/**
 * A `$ref` to a component of the admin API's OpenAPI document.
 *
 * @example
 * ref('schemas', 'Mode') // { $ref: '#/components/schemas/Mode' }
 */
export const ref = (kind: 'schemas' | 'responses' | 'requestBodies', name: string): OpenApiFragment => ({
  $ref: `#/components/${kind}/${name}`,
})

/**
 * A JSON answer described by `schema`.
 *
 * @example
 * ok('The attempt', ref('schemas', 'Attempt'))
 */
export const ok = (description: string, schema: OpenApiFragment, type = 'application/json'): OpenApiFragment => ({
  description,
  content: { [type]: { schema } },
})

/**
 * The answer of a route that moves or reads the clock.
 *
 * @example
 * responses: { '200': NOW }
 */
export const NOW = ref('responses', 'Now')
/**
 * The answer of every fault route.
 *
 * @example
 * responses: { '200': FAULTS }
 */
export const FAULTS = ref('responses', 'Faults')
/**
 * The error envelope (a documented refusal status).
 *
 * @example
 * responses: { '200': ok('The attempt', ref('schemas', 'Attempt')), '404': ERROR }
 */
export const ERROR = ref('responses', 'Error')

const mode = ref('schemas', 'Mode')
const date = { type: 'string', format: 'date-time' }

/**
 * The shared parts of the document: security schemes, the common answers and the object shapes
 * several routes answer.
 *
 * @example
 * const doc = { openapi: '3.1.0', components: adminComponents }
 */
export const adminComponents: OpenApiFragment = {
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'The token serve printed at start, --admin-token or SERVICE_SIM_ADMIN_TOKEN',
    },
    adminTokenHeader: { type: 'apiKey', in: 'header', name: 'X-Sim-Admin-Token' },
  },
  responses: {
    Now: ok('The virtual time after the call', { type: 'object', properties: { now: date } }),
    Faults: ok("The fault engine's state", {
      type: 'object',
      properties: {
        rates: { type: 'object', additionalProperties: { type: 'number' } },
        fired: { type: 'object', additionalProperties: { type: 'integer' } },
        kinds: { type: 'array', items: ref('schemas', 'FaultKind') },
      },
    }),
    Error: ok(
      'A refusal: 400 invalid input, 401 token, 403 Host or Origin, 404 unknown route or id, 405 method, 413 body, 415 content type',
      {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['type', 'code', 'message'],
            properties: {
              type: { type: 'string', enum: ['invalid_request_error', 'api_error'] },
              code: { type: 'string' },
              message: { type: 'string' },
              param: { type: 'string' },
            },
          },
        },
      },
    ),
  },
  schemas: {
    Mode: { type: 'string', enum: ['test', 'live'] },
    Keys: { type: 'object', properties: { test: { type: 'string' }, live: { type: 'string' } } },
    FaultKind: { type: 'string', enum: [...faultKinds] },
    State: {
      type: 'object',
      properties: {
        now: date,
        seed: { type: 'string' },
        header_prefix: { type: 'string' },
        clock: {
          oneOf: [
            { type: 'object', properties: { mode: { const: 'manual' } } },
            { type: 'object', properties: { mode: { const: 'wall' }, speed: { type: 'number' } } },
          ],
        },
        platform: { type: 'object' },
        accounts: { type: 'array', items: { type: 'object' } },
        trace: { type: 'object', properties: { length: { type: 'integer' }, hash: { type: 'string' } } },
        forward: {
          type: 'array',
          items: { type: 'object' },
          description: 'Destinations made by --forward-to, with their signing secrets',
        },
      },
    },
    Event: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        type: { type: 'string' },
        account: { type: 'string' },
        mode,
        kind: { type: 'string', enum: ['snapshot', 'thin'] },
        created: date,
      },
    },
    Attempt: {
      type: 'object',
      properties: {
        at: date,
        trigger: { type: 'string', enum: ['automatic', 'retry', 'dashboard', 'cli', 'duplicate', 'synchronous', 'ping'] },
        outcome: { type: 'string', enum: ['delivered', 'http_error', 'connect_error', 'tls_error', 'timeout'] },
        status: { type: ['integer', 'null'] },
        duration_ms: { type: 'number' },
        message: { type: 'string' },
        answer: { type: 'string', description: "The receiver's answer body (its first 4 KiB), when serve kept it" },
      },
    },
    Delivery: {
      type: 'object',
      properties: {
        event: { type: 'string' },
        event_type: { type: 'string' },
        destination: { type: 'string' },
        url: { type: 'string' },
        mode,
        status: { type: 'string', enum: [...DELIVERY_STATUSES] },
        retries: { type: 'integer' },
        next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
        cancelled: { type: ['string', 'null'] },
        attempts: { type: 'array', items: ref('schemas', 'Attempt') },
      },
    },
  },
}
