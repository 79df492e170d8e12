import { formObject } from './form-params.js'
import type { RequestRow } from './request-row.js'

/**
 * What a copied request needs beyond its row: where serve listens, the platform's keys, and the
 * header prefix the simulator answers to.
 *
 * @example
 * const ctx: CopyContext = { origin: 'http://127.0.0.1:12111', platform: 'acct_1', keys: { test: 'sk_test_1', live: 'sk_live_1' }, prefix: 'Stripe' }
 */
export interface CopyContext {
  readonly origin: string
  readonly platform: string
  readonly keys: { readonly test: string; readonly live: string }
  readonly prefix: string
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** An id in a path (`cus_Ab12`), as opposed to a word of the path (`test_clocks`). */
const ID = /^[a-z]{2,10}(_[a-z]+)*_[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*$/

const keyOf = (row: RequestRow, ctx: CopyContext): string => (row.mode === 'live' ? ctx.keys.live : ctx.keys.test)

/** The version asked for, or undefined when the request took its account's default. */
const askedVersion = (row: RequestRow): string | undefined =>
  row.version === undefined || row.version.endsWith('(account default)') ? undefined : row.version

const connected = (row: RequestRow, ctx: CopyContext): string | undefined =>
  row.account !== undefined && row.account !== ctx.platform ? row.account : undefined

/**
 * The request as a `curl` command against serve: the platform's key, the version it asked for,
 * its idempotency key, the connected account it acted for, and its form parameters.
 *
 * @example
 * curlCommand(row, ctx) // "curl -X POST 'http://127.0.0.1:12111/v1/customers' \\\n  -u 'sk_test_…:' ..."
 */
export function curlCommand(row: RequestRow, ctx: CopyContext): string {
  const lines = [`curl -X ${row.method} ${quote(`${ctx.origin}${row.path}`)}`, `-u ${quote(`${keyOf(row, ctx)}:`)}`]
  const version = askedVersion(row)
  if (version !== undefined) lines.push(`-H ${quote(`${ctx.prefix}-Version: ${version}`)}`)
  if (row.idempotencyKey !== undefined) lines.push(`-H ${quote(`Idempotency-Key: ${row.idempotencyKey}`)}`)
  const account = connected(row, ctx)
  if (account !== undefined) lines.push(`-H ${quote(`${ctx.prefix}-Account: ${account}`)}`)
  const pairs = row.requestBody === '' ? [] : row.requestBody.split('&')
  if (pairs.length > 0 && (row.method === 'GET' || row.method === 'DELETE')) lines.push('-G')
  for (const pair of pairs) lines.push(`-d ${quote(pair)}`)
  return lines.join(' \\\n  ')
}

/**
 * The request as the official node client's call: the resource method its operation names, the
 * ids in its path, its parameters and its request options.
 *
 * @example
 * nodeClientCall(row, ctx) // "await stripe.customers.create({\n  email: 'jenny@example.com',\n})"
 */
export function nodeClientCall(row: RequestRow, ctx: CopyContext): string {
  const url = new URL(ctx.origin)
  const setup = `const stripe = new Stripe(${literal(keyOf(row, ctx))}, { host: ${literal(url.hostname)}, port: ${url.port || '80'}, protocol: 'http' })`
  if (row.operation === undefined) return `${setup}\n// ${row.method} ${row.path}: no client method is known for this path`
  const ids = row.path.split('/').filter((part) => ID.test(part))
  const params = formObject(row.requestBody)
  const options: Record<string, string> = {}
  const version = askedVersion(row)
  if (row.idempotencyKey !== undefined) options.idempotencyKey = row.idempotencyKey
  const account = connected(row, ctx)
  if (account !== undefined) options.stripeAccount = account
  if (version !== undefined) options.apiVersion = version
  const args = ids.map((id) => literal(id))
  const hasOptions = Object.keys(options).length > 0
  if (Object.keys(params).length > 0 || hasOptions) args.push(literal(params))
  if (hasOptions) args.push(literal(options))
  return `${setup}\nawait stripe.${row.operation}(${args.join(', ')})`
}

/** A value as JavaScript source: single-quoted text, unquoted keys where they are names. */
function literal(value: unknown, indent = ''): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join('\n')}\n${indent}]`
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return '{}'
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : literal(k))
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${literal(v, inner)},`).join('\n')}\n${indent}}`
}
