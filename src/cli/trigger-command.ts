import { adminConnection, tokenRefused } from './admin-connection.js'
import { type AdminAnswer, postAdmin } from './admin-request.js'
import { parseCommandArgs } from './command-flags.js'
import { HELP } from './help.js'
import { UsageError } from './usage-error.js'

interface TriggerAnswer {
  id?: string
  type?: string
  synthetic?: boolean
  body?: { data?: { object?: { id?: string; object?: string } } }
  requests?: { method: string; path: string; status: number; id?: string }[]
  error?: { message?: string }
}

/** Prints the requests serve made and the event. */
function printTriggered(answer: TriggerAnswer): void {
  for (const r of answer.requests ?? [])
    process.stdout.write(`  ${r.method} ${r.path} -> ${r.status}${r.id === undefined ? '' : ` (${r.id})`}\n`)
  const object = answer.body?.data?.object
  process.stdout.write(
    `Trigger succeeded: ${answer.type} event ${answer.id}${object?.id === undefined ? '' : ` for ${object.object} ${object.id}`}${answer.synthetic ? ' (generated: no API calls cause this type yet, so it names no stored object)' : ''}\n`,
  )
}

/**
 * `service-sim trigger <event type> [--url URL] [--admin-token T] [--env-file PATH] [--account acct_...]`:
 * against a running `serve`, runs the API calls that cause the event (as the provider CLI's
 * trigger does) and prints the requests made and the event, which names a stored object. The
 * address and token come from the flags, else `SERVICE_SIM_URL` and `SERVICE_SIM_ADMIN_TOKEN`,
 * else the env file serve wrote. `--list`: the types with a recipe. Exit 0 when the event was
 * caused, 1 when serve refused or the calls failed.
 *
 * @example
 * await triggerCommand(['payment_intent.succeeded', '--url', 'http://127.0.0.1:12111'])
 */
export async function triggerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('trigger', args)
  if (values.help) {
    process.stdout.write(HELP.trigger ?? '')
    return 0
  }
  if (values.list) {
    // The recipes live with the simulator, which a trigger itself never loads: it is one HTTP call.
    const { triggerTypes } = await import('#simulator/index.js')
    process.stdout.write(`${triggerTypes().join('\n')}\n`)
    return 0
  }
  const [type, extra] = positionals
  if (type === undefined) throw new UsageError('expected an event type, e.g. payment_intent.succeeded (--list names them)')
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`)
  const connection = adminConnection(values, process.env)
  const base = connection.url
  let url: URL
  try {
    url = new URL('/__sim/events/trigger', base)
  } catch {
    throw new UsageError(`--url: '${base}' is not a URL such as http://127.0.0.1:12111`)
  }
  // serve listens on plain HTTP on loopback only.
  if (url.protocol !== 'http:') throw new UsageError(`--url: serve speaks http://, got '${base}'`)
  let response: AdminAnswer
  try {
    response = await postAdmin(
      url,
      { type, ...(values.account === undefined ? {} : { account: values.account }) },
      connection.token,
    )
  } catch (error) {
    process.stderr.write(
      `service-sim trigger: no serve at ${base} (${(error as Error).message}); start one with 'service-sim serve'\n`,
    )
    return 1
  }
  const answer = response.body as TriggerAnswer
  if (response.status === 401) {
    process.stderr.write(`service-sim trigger: ${tokenRefused(connection)}\n`)
    return 1
  }
  if (response.status !== 200) {
    process.stderr.write(`service-sim trigger: ${answer.error?.message ?? `serve answered ${response.status}`}\n`)
    return 1
  }
  printTriggered(answer)
  if (answer.synthetic) await hintRecipe(type)
  return 0
}

/**
 * A generated event for a type near one with a recipe is most likely a typo: say which type was
 * meant. Loaded only then, as the recipes live with the simulator.
 */
async function hintRecipe(type: string): Promise<void> {
  const [{ triggerTypes }, { closestName }] = await Promise.all([import('#simulator/index.js'), import('#kernel/index.js')])
  const near = closestName(type, triggerTypes())
  if (near !== undefined && near !== type)
    process.stderr.write(`service-sim trigger: '${type}' has no recipe; did you mean '${near}'? (--list names them)\n`)
}
