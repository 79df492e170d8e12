import type { Simulator } from '#simulator/index.js'
import type { FlowDeployment } from './flow-deploy.js'

type Json = Record<string, unknown>

/**
 * How a delivery reached the app, as the app meets it: in order, after a later event about the same
 * object (`out_of_order`: reordered or delayed), again after the app acknowledged it (`duplicate`),
 * again after it failed or went unanswered (`retry`), with a signature older than the tolerance
 * (`replayed`), or from an attacker (`forged`).
 */
export type DeliveryFault = 'in_order' | 'out_of_order' | 'duplicate' | 'retry' | 'replayed' | 'forged'

/**
 * Where the app stood when the delivery came: deployed since before the event (`none`), redeployed
 * after the event was made (`redeployed`: what it remembered of it is gone), or still running with
 * the secrets from before a roll (`in_roll`: it holds one secret while deliveries carry two).
 */
export type DeliveryDeploy = 'none' | 'redeployed' | 'in_roll'

/** Signatures older than this are replays (the official libraries' default tolerance). */
const TOLERANCE_S = 300

/** The provider's state of an object now: its status (a checkout session's with its payment status). */
function stateOf(sim: Simulator, object: Json): string {
  let found: Json | undefined
  try {
    found = sim.service.engine
      .resource(String(object.object))
      .get({ account: sim.platform.id, mode: 'test' }, String(object.id)) as Json | undefined
  } catch {
    found = undefined
  }
  const o = found ?? object
  const status = o.status === undefined ? 'none' : String(o.status)
  return o.object === 'checkout.session' ? `${status}/${String(o.payment_status)}` : status
}

/**
 * The combinations of (event type, the provider's state of its object on arrival, how it arrived,
 * where the app stood) one flow run produced, as `type|state|fault|deploy` keys: what a campaign
 * counts and steers towards. The state is the provider's when the delivery arrives, so a failure
 * notice delivered after the invoice was paid is `invoice.payment_failed|paid|...`.
 *
 * @example
 * const coverage = new FlowCoverage(sim, deployment, acked)
 * coverage.observe(raw, headers, false)
 * coverage.keys() // ['invoice.paid|paid|in_order|none', ...]
 */
export class FlowCoverage {
  private readonly seen = new Set<string>()
  // Per object, the latest `created` of the events about it that reached the app.
  private readonly newest = new Map<string, number>()
  private readonly arrived = new Set<string>()

  constructor(
    private readonly sim: Simulator,
    private readonly deployment: FlowDeployment,
    private readonly acked: ReadonlySet<string>,
    private readonly signatureHeader: string,
  ) {}

  /** Notes one request the app was handed (`forged` when the harness's attacker sent it). */
  observe(raw: string, headers: Headers, forged: boolean): void {
    let event: { id?: unknown; type?: unknown; created?: unknown; data?: { object?: Json } }
    try {
      event = JSON.parse(raw) as typeof event
    } catch {
      return
    }
    const object = event.data?.object
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || object === undefined) return
    const created = Number(event.created ?? 0)
    const fault = forged ? 'forged' : this.faultOf(event.id, String(object.id), created, headers)
    const d = this.deployment
    const deploy: DeliveryDeploy =
      d.rolledAt !== undefined ? 'in_roll' : d.deploys > 0 && created * 1000 < d.deployedAt ? 'redeployed' : 'none'
    this.seen.add(`${event.type}|${stateOf(this.sim, object)}|${fault}|${deploy}`)
  }

  private faultOf(id: string, object: string, created: number, headers: Headers): DeliveryFault {
    const t = /(?:^|,)t=(\d+)/.exec(headers.get(this.signatureHeader) ?? '')?.[1]
    if (t !== undefined && this.sim.clock.now / 1000 - Number(t) > TOLERANCE_S) return 'replayed'
    if (this.arrived.has(id)) return this.acked.has(id) ? 'duplicate' : 'retry'
    this.arrived.add(id)
    const newest = this.newest.get(object)
    if (newest !== undefined && newest > created) return 'out_of_order'
    this.newest.set(object, created)
    return 'in_order'
  }

  /** The combinations this run produced, sorted. */
  keys(): string[] {
    return [...this.seen].sort()
  }
}
