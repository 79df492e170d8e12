import { decodeBody, decodeQuery } from '../body.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Decodes the body (form on `/v1`, JSON on `/v2`; none on a GET) and the query into plain objects,
 * refusing what cannot be read with the provider's 400.
 *
 * @example
 * decodeStep(ctx) // ctx.body { email: 'a@b.c' } for `email=a%40b.c`
 */
export function decodeStep(ctx: PipelineContext): void {
  const { incoming } = ctx
  ctx.body = ctx.method === 'GET' ? {} : decodeBody(incoming.text, incoming.headers.get('content-type'), ctx.style)
  ctx.query = decodeQuery(incoming.url.search)
}
