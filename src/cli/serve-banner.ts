import type { Simulator } from '#simulator/index.js'
import { SERVE_URL_ENV } from './admin-connection.js'
import type { ForwardDestination } from './serve-forwarding.js'
import { allowedHostSet } from './serve-guard.js'
import { ADMIN_TOKEN_ENV, type ServeOptions } from './serve-options.js'

/** How to use the admin token; a token the user chose is not echoed into logs, a generated one has to be, or nobody knows it. */
function tokenLine(o: ServeOptions): string {
  if (o.token === null) return `  admin token none (${o.tokenSource}): any local process can use the admin API`
  return o.tokenSource === 'generated'
    ? `  admin token ${o.token} (send 'Authorization: Bearer <token>'; fix one with --admin-token or ${ADMIN_TOKEN_ENV})`
    : `  admin token from ${o.tokenSource} (send 'Authorization: Bearer <token>')`
}

/** The dashboard's link: with a generated token it carries it (opening it sets the page's cookie). */
function dashboardLine(o: ServeOptions, url: string): string {
  const link = `${url}/__dashboard`
  if (o.token === null) return `  dashboard ${link}`
  return o.tokenSource === 'generated' ? `  dashboard ${link}?token=${o.token}` : `  dashboard ${link}?token=<admin token>`
}

/** Which header names are in force, and how to have the other set. */
function prefixLine(prefix: string): string {
  const other = prefix === 'Stripe' ? 'Service' : 'Stripe'
  const whose = (p: string) => (p === 'Stripe' ? "the official clients' names" : "the seed's names")
  const scoped = ['Account', 'Version', 'Context'].map((n) => `${prefix}-${n}`).join(', ')
  return `  header prefix ${prefix} (${whose(prefix)}): webhooks signed with ${prefix}-Signature; ${scoped} honoured, and under ${other}- too; --header-prefix ${other} for ${whose(other)}`
}

function clockLine(o: ServeOptions, sim: Simulator): string {
  const now = new Date(sim.clock.now).toISOString()
  return o.clock.mode === 'wall'
    ? `  clock wall${o.clock.speed === 1 ? '' : ` x${o.clock.speed}`}: virtual time ${now} follows real time; work falls due by itself`
    : `  clock manual: virtual time ${now} moves only through POST /__sim/clock/advance`
}

function forwardLine(f: ForwardDestination): string {
  return `  forwarding ${f.event_payload} events (${f.enabled_events.join(', ')}) from ${f.events_from.join(', ')} to ${f.url} (${f.option}): destination ${f.destination}\n  webhook signing secret ${f.signing_secret}\n`
}

/** What `serveBanner` prints besides the options. */
export interface BannerFacts {
  readonly sim: Simulator
  /** The port listened on (the one the system picked for `--port 0`). */
  readonly port: number
  readonly forwarded: readonly ForwardDestination[]
  /** The file `--record` writes, when recording. */
  readonly recordFile: string | undefined
}

/**
 * The start banner of `serve`: where it serves, the platform's keys, the admin API and its token,
 * the dashboard's link, the clock, the forwarding destinations, the files written, and the hosts allowed.
 *
 * @example
 * process.stdout.write(serveBanner(options, { sim, port: 12111, forwarded: [], recordFile: undefined }))
 */
export function serveBanner(o: ServeOptions, facts: BannerFacts): string {
  const { sim, port, forwarded, recordFile } = facts
  const url = `http://127.0.0.1:${port}`
  return `service-sim serving on ${url} (seed ${sim.seed})
${prefixLine(sim.service.kernel.prefix)}
  platform ${sim.platform.id}
  secret key ${sim.platform.secretKey.test}
  publishable key ${sim.platform.publishableKey.test}
  admin API ${url}/__sim/state
${tokenLine(o)}
${dashboardLine(o, url)}
${clockLine(o, sim)}
${forwarded.map(forwardLine).join('')}${o.envFile === undefined ? '' : `  keys, signing secret, ${SERVE_URL_ENV} and ${ADMIN_TOKEN_ENV} written to ${o.envFile}\n`}${recordFile === undefined ? '' : `  recording the session to ${recordFile}\n`}  hosts ${[...allowedHostSet(o.allowedHosts)].join(', ')} (any port)
Press Ctrl-C to stop.
`
}
