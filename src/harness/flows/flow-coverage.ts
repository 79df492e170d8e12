import type { Simulator } from '#simulator/index.js'
import type { FlowDeployment } from './flow-deploy.js'

type Json = Record<string, unknown>

/**
 * How a delivery reached the app, as the app meets it: in order, after a later event about the same
 * object (`out_of_order`: reordered or delayed), again after the app acknowledged it, or a second
 * event for a change it has met (`duplicate`),
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

/** An object's state as the combinations name it: its status (a checkout session's with its payment status). */
function stateName(o: Readonly<Json>): string {
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
 * const coverage = new FlowCoverage(sim, deployment, 'Stripe-Signature')
 * coverage.observe(JSON.parse(raw), request.headers, false)
 * coverage.keys() // ['invoice.paid|paid|in_order|none', ...]
 */
export class FlowCoverage {
  // Per combination, the 1-based step during which the app first met it (steps + 1: the final settle).
  private readonly seen = new Map<string, number>()
  /** The step running now (1-based), as the run sets it: where a campaign grafts its faults. */
  step = 0
  /** The type of the run's first genuine delivery: what the attacker's replay re-sends. */
  firstType: string | undefined
  // Per object, the latest `created` of the events about it that reached the app.
  private readonly newest = new Map<string, number>()
  // Per event, how its latest arrival went: still being handled, acknowledged, or not.
  private readonly arrived = new Map<string, 'handling' | 'acked' | 'failed'>()
  // The provider's state of each object now, as its latest event (of any type) shows it.
  private readonly states = new Map<string, string>()
  // Per (type, object), the latest event about it; and each event that repeats that event's change
  // (a redundant twin: the same type, object, second and data) paired with it, both ways.
  private readonly lastChange = new Map<string, { readonly id: string; readonly created: unknown; readonly data: unknown }>()
  private readonly twins = new Map<string, string>()

  constructor(
    private readonly sim: Simulator,
    private readonly deployment: FlowDeployment,
    private readonly signatureHeader: string,
  ) {
    sim.service.events.subscribe((e) => {
      const data = e.body.data as { object?: Json } | undefined
      const object = data?.object
      if (e.objectId === undefined || object === undefined) return
      // A twin repeats an earlier change: its object is as it was then, not the provider's state now.
      if (!this.noteChange(`${e.type}|${e.objectId}`, e.id, e.body.created, data)) this.states.set(e.objectId, stateName(object))
    })
  }

  /** Pairs an event with the last one of its type and object when both describe the same change; true for such a twin. */
  private noteChange(key: string, id: string, created: unknown, data: unknown): boolean {
    const last = this.lastChange.get(key)
    this.lastChange.set(key, { id, created, data })
    // Same second first: the text of the data is made only for the rare repeat within one.
    if (last === undefined || last.created !== created || JSON.stringify(last.data) !== JSON.stringify(data)) return false
    this.twins.set(id, last.id)
    this.twins.set(last.id, id)
    return true
  }

  /** Notes one request the app was handed (`forged` when the harness's attacker sent it); its event id. */
  observe(
    event: {
      readonly id?: unknown
      readonly type?: unknown
      readonly created?: unknown
      readonly data?: { readonly object?: Json }
    },
    headers: Headers,
    forged: boolean,
  ): string | undefined {
    const object = event.data?.object
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || object === undefined) return undefined
    const created = Number(event.created ?? 0)
    const fault = forged ? 'forged' : this.faultOf(event.id, String(object.id), created, headers)
    const d = this.deployment
    const deploy: DeliveryDeploy =
      d.rolledAt !== undefined ? 'in_roll' : d.deploys > 0 && created * 1000 < d.deployedAt ? 'redeployed' : 'none'
    if (!forged) this.firstType ??= event.type
    const key = `${event.type}|${this.states.get(String(object.id)) ?? stateName(object)}|${fault}|${deploy}`
    if (!this.seen.has(key)) this.seen.set(key, this.step)
    return event.id
  }

  /** Notes how the app answered a request about event `id`. */
  answered(id: string | undefined, ok: boolean): void {
    if (id !== undefined && this.arrived.has(id)) this.arrived.set(id, ok ? 'acked' : 'failed')
  }

  private faultOf(id: string, object: string, created: number, headers: Headers): DeliveryFault {
    const t = /(?:^|,)t=(\d+)/.exec(headers.get(this.signatureHeader) ?? '')?.[1]
    if (t !== undefined && this.sim.clock.now / 1000 - Number(t) > TOLERANCE_S) return 'replayed'
    const before = this.arrived.get(id)
    if (before !== undefined) {
      if (before === 'failed') return 'retry'
      return 'duplicate'
    }
    this.arrived.set(id, 'handling')
    // A second event for a change the app has met already (a redundant twin) is that change again.
    const twin = this.twins.get(id)
    if (twin !== undefined && this.arrived.has(twin)) return 'duplicate'
    const newest = this.newest.get(object)
    if (newest !== undefined && newest > created) return 'out_of_order'
    this.newest.set(object, created)
    return 'in_order'
  }

  /** The combinations this run produced, sorted. */
  keys(): string[] {
    return [...this.seen.keys()].sort()
  }

  /** The step (1-based; steps + 1 for the final settle) during which each combination was first met. */
  steps(): Record<string, number> {
    return Object.fromEntries([...this.seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
}
