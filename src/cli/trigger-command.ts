import { parseArgs } from 'node:util'
import { triggerTypes } from '#simulator/index.js'
import { HELP } from './help.js'
import { ADMIN_TOKEN_ENV } from './serve-options.js'
import { UsageError } from './usage-error.js'

interface TriggerAnswer {
  id?: string
  type?: string
  synthetic?: boolean
  body?: { data?: { object?: { id?: string; object?: string } } }
  requests?: { method: string; path: string; status: number; id?: string }[]
  error?: { message?: string }
}

/**
 * `service-sim trigger <event type> [--url URL] [--admin-token T] [--account acct_...]`: against a
 * running `serve`, runs the API calls that cause the event (as the provider CLI's trigger does) and
 * prints the requests made and the event, which names a stored object. `--list`: the types with a
 * recipe. Exit 0 when the event was caused, 1 when serve refused or the calls failed.
 *
 * @example
 * await triggerCommand(['payment_intent.succeeded', '--url', 'http://127.0.0.1:12111'])
 */
export async function triggerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'admin-token': { type: 'string' },
      account: { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(HELP.trigger ?? '')
    return 0
  }
  if (values.list) {
    process.stdout.write(`${triggerTypes().join('\n')}\n`)
    return 0
  }
  const [type, extra] = positionals
  if (type === undefined) throw new UsageError('expected an event type, e.g. payment_intent.succeeded (--list names them)')
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`)
  const base = values.url ?? 'http://127.0.0.1:12111'
  let url: URL
  try {
    url = new URL('/__sim/events/trigger', base)
  } catch {
    throw new UsageError(`--url: '${base}' is not a URL such as http://127.0.0.1:12111`)
  }
  const token = values['admin-token'] ?? process.env[ADMIN_TOKEN_ENV]
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(token === undefined || token === '' || token === 'none' ? {} : { Authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ type, ...(values.account === undefined ? {} : { account: values.account }) }),
    })
  } catch (error) {
    process.stderr.write(
      `service-sim trigger: no serve at ${base} (${(error as Error).message}); start one with 'service-sim serve'\n`,
    )
    return 1
  }
  const answer = (await response.json().catch(() => ({}))) as TriggerAnswer
  if (response.status !== 200) {
    process.stderr.write(`service-sim trigger: ${answer.error?.message ?? `serve answered ${response.status}`}\n`)
    return 1
  }
  for (const r of answer.requests ?? [])
    process.stdout.write(`  ${r.method} ${r.path} -> ${r.status}${r.id === undefined ? '' : ` (${r.id})`}\n`)
  const object = answer.body?.data?.object
  process.stdout.write(
    `Trigger succeeded: ${answer.type} event ${answer.id}${object?.id === undefined ? '' : ` for ${object.object} ${object.id}`}${answer.synthetic ? ' (generated: no API calls cause this type yet, so it names no stored object)' : ''}\n`,
  )
  return 0
}
