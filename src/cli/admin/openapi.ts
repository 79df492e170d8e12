import { stringify } from 'yaml'
import { z } from 'zod'
import { declaredPathNames as pathNames } from '#http/index.js'
import type { AdminRoute, OpenApiFragment } from './admin-route.js'
import { adminRoutes } from './admin-routes.js'
import { adminComponents, ERROR, ref } from './openapi-components.js'

const about = `The admin API of \`service-sim serve\`, under \`/__sim/\` on the served port. It drives a served
simulation from a test suite in any language: setup, time travel, events, deliveries, faults
and reset. Every route needs the admin token (\`Authorization: Bearer <token>\` or
\`X-Sim-Admin-Token\`), a loopback \`Host\` (or one given with \`--allowed-host\`), no foreign
\`Origin\`, and \`Content-Type: application/json\` on writes. Inputs are validated whole before
anything changes; unknown fields and query parameters are refused. Every refusal is answered in
the error envelope. Generated from the route declarations the server runs, so this document and
the server cannot disagree.
`

/** JSON Schema of what a client sends (a coerced or transformed field documents its input). */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

function parameters(query: z.ZodType): OpenApiFragment[] {
  const s = jsonSchema(query) as { properties?: Record<string, Record<string, unknown>>; required?: string[] }
  return Object.entries(s.properties ?? {}).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: s.required?.includes(name) ?? false,
    schema,
    ...(description === undefined ? {} : { description }),
  }))
}

function requestBody(route: AdminRoute): OpenApiFragment {
  if (route.body === undefined) return ref('requestBodies', 'Empty')
  const schema = route.bodyDoc ?? jsonSchema(route.body)
  const required = route.bodyRequired ?? (Array.isArray(schema.required) ? schema.required.length > 0 : 'oneOf' in schema)
  return { required, content: { 'application/json': { schema } } }
}

function operation(route: AdminRoute): OpenApiFragment {
  return {
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    ...(route.query === undefined && pathNames(route.path).length === 0
      ? {}
      : {
          parameters: [
            ...pathNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
            ...(route.query === undefined ? [] : parameters(route.query)),
          ],
        }),
    ...(route.method === 'POST' ? { requestBody: requestBody(route) } : {}),
    responses: { ...route.responses, default: ERROR },
  }
}

/**
 * The admin API's OpenAPI 3.1 document, generated from `adminRoutes`.
 *
 * @example
 * Object.keys(adminOpenApi().paths) // ['/state', '/clock/advance', ...]
 */
export function adminOpenApi(): { openapi: string; paths: Record<string, Record<string, OpenApiFragment>> } & OpenApiFragment {
  const paths: Record<string, Record<string, OpenApiFragment>> = {}
  for (const route of adminRoutes) {
    const item = paths[route.path] ?? {}
    item[route.method.toLowerCase()] = operation(route)
    paths[route.path] = item
  }
  return {
    openapi: '3.1.0',
    info: { title: 'service-sim serve admin API', version: '1.0.0', description: about },
    servers: [{ url: 'http://127.0.0.1:12111/__sim' }],
    security: [{ bearer: [] }, { adminTokenHeader: [] }],
    paths,
    components: {
      ...adminComponents,
      requestBodies: {
        Empty: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } } },
      },
    },
  }
}

/**
 * The text of `docs/admin-api.openapi.yaml`.
 *
 * @example
 * writeFileSync('docs/admin-api.openapi.yaml', adminOpenApiText())
 */
export function adminOpenApiText(): string {
  // The file ships: its header names no repository path (the generator is `npm run admin-openapi`).
  const header = '# Generated from the admin route declarations of service-sim serve: do not edit.\n'
  return header + stringify(adminOpenApi(), { lineWidth: 0, aliasDuplicateObjects: false })
}
