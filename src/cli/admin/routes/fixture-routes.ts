// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the description names the reference syntax literally
import { z } from 'zod'
import { fixtureFailure } from '#simulator/index.js'
import { json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ERROR, ok } from '../openapi-components.js'

const fixtures = adminRoute({
  method: 'POST',
  path: '/fixtures',
  summary: "Run a fixture file (the provider CLI's format) through the API, as serve --fixtures does",
  description:
    'The body is the fixture file: `_meta` and `fixtures[]` with `name`, `path`, `method`, `params`; `${name:path}` refers to an earlier answer. Requests run in order on the platform; the first that fails stops the run and is named in a 400 (`failed`: position, name, method, path, status, reason, the API error).',
  body: z.looseObject({
    _meta: z.record(z.string(), z.unknown()).optional(),
    fixtures: z.array(z.unknown()).max(1000),
  }),
  responses: {
    '200': ok('Every request ran', {
      type: 'object',
      properties: { ok: { type: 'boolean' }, steps: { type: 'array', items: { type: 'object' } } },
    }),
    '400': ERROR,
  },
  handler: async ({ sim, body }) => {
    const result = await sim.admin.loadFixtures(body)
    if (result.ok) return json(200, result)
    return json(400, {
      error: { type: 'invalid_request_error', code: 'fixture_failed', message: fixtureFailure(result) },
      ...result,
    })
  },
})

/**
 * The fixture route: `POST /fixtures`.
 *
 * @example
 * fixtureRoutes.map((r) => r.path) // ['/fixtures']
 */
export const fixtureRoutes: readonly AdminRoute[] = [fixtures]
