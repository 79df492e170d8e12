import { z } from 'zod'
import type { Simulator } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { accountView, clockRelations, customerRelations } from '../object-relations.js'
import { ERROR, ok } from '../openapi-components.js'

/** Matches at most this many objects: a search is for finding one, not for listing. */
const MAX_MATCHES = 50

/** One object a search found: what it is, whose, and a few words to tell it apart. */
function match(o: Record<string, unknown> & { id: string }, account: string, mode: string) {
  const label = [o.email, o.name, o.description, o.status, o.url].find((v) => typeof v === 'string' && v !== '')
  return { id: o.id, object: o.object ?? null, account, mode, label: (label as string | undefined) ?? null }
}

/** Customers whose email holds `text`, in every account and mode, newest first. */
function byEmail(sim: Simulator, text: string) {
  const found: ReturnType<typeof match>[] = []
  const needle = text.toLowerCase()
  for (const account of sim.admin.accounts()) {
    for (const mode of ['test', 'live'] as const) {
      if (!account.modes.has(mode)) continue
      for (const c of sim.admin.objects('customer', { account: account.id, mode }).reverse()) {
        if (typeof c.email === 'string' && c.email.toLowerCase().includes(needle)) found.push(match(c, account.id, mode))
        if (found.length >= MAX_MATCHES) return found
      }
    }
  }
  return found
}

const search = adminRoute({
  method: 'GET',
  path: '/objects',
  summary: 'Find stored objects by id (any account and mode) or customers by a part of their email',
  query: z.strictObject({ q: z.string().trim().min(1, 'expected an id or a part of an email').max(255) }),
  responses: {
    '200': ok('What matched (at most 50)', { type: 'object', properties: { data: { type: 'array' } } }),
    '400': ERROR,
  },
  handler: ({ sim, query }) => {
    const account = sim.admin.account(query.q)
    if (account !== undefined)
      return json(200, { data: [{ id: account.id, object: 'account', account: account.id, mode: null, label: null }] })
    const located = sim.admin.locate(query.q)
    if (located !== undefined) return json(200, { data: [match(located.object, located.scope.account, located.scope.mode)] })
    return json(200, { data: byEmail(sim, query.q) })
  },
})

const show = adminRoute({
  method: 'GET',
  path: '/objects/{id}',
  summary: "A stored object with whose it is and its related objects (a customer's, a test clock's); an account's view",
  responses: { '200': ok('The object and its relations', { type: 'object' }), '404': ERROR },
  handler: ({ sim, path }) => {
    const id = path.id ?? ''
    const account = accountView(sim, id)
    if (account !== undefined) return json(200, { object: account, account: id, mode: null, related: {} })
    const located = sim.admin.locate(id)
    if (located === undefined) return fail(404, `no stored object '${id}' in any account or mode`, 'id')
    const { scope, object } = located
    const related =
      object.object === 'customer'
        ? customerRelations(sim, scope, id)
        : object.object === 'test_helpers.test_clock'
          ? clockRelations(sim, scope, id)
          : {}
    return json(200, { object, account: scope.account, mode: scope.mode, related })
  },
})

/**
 * Inspecting stored objects: a search by id or email, and one object with its relations.
 *
 * @example
 * objectRoutes.map((r) => r.path) // ['/objects', '/objects/{id}']
 */
export const objectRoutes: readonly AdminRoute[] = [search, show]
