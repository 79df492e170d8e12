import { verifySignature } from '#domain/index.js'
import type { ReceivedDelivery } from '../run/step-runner.js'
import { StepFailure } from '../steps/step-context.js'
import { loadClientModule } from './client-module.js'
import { referenceClient } from './reference-client.js'
import type { DeliveryRecord } from './run-result.js'
import type { ScenarioRun } from './scenario-run.js'
import type { Scenario } from './schema.js'

type ReceiverSetup = Scenario['setup']['receivers'][number]

/** The event id, type and `created` (seconds) of a delivered body, when it has them. */
function eventOf(raw: string): { eventId: string | null; type: string | null; created?: number } {
  try {
    const parsed = JSON.parse(raw) as { id?: string; type?: string; created?: number | string }
    const created =
      typeof parsed.created === 'number'
        ? parsed.created
        : typeof parsed.created === 'string'
          ? Date.parse(parsed.created) / 1000
          : undefined
    return { eventId: parsed.id ?? null, type: parsed.type ?? null, ...(created === undefined ? {} : { created }) }
  } catch {
    return { eventId: null, type: null }
  }
}

/** Whether a delivery's signature verifies with a secret the run saw (a replay is not checked). */
function signatureOf(d: ReceivedDelivery, known: readonly string[]): DeliveryRecord['signature'] {
  if (d.replay || known.length === 0) return 'unchecked'
  try {
    verifySignature(d.raw, d.signatureHeader, [...known], { now: d.at })
    return 'valid'
  } catch {
    return 'invalid'
  }
}

/** Records every delivery the receiver saw, numbering the attempts of each event. */
function recorder(run: ScenarioRun, r: ReceiverSetup, secrets: () => string[]): (d: ReceivedDelivery) => void {
  const seen = new Map<string, number>()
  return (d) => {
    const signature = signatureOf(d, secrets())
    const { eventId, type, created } = eventOf(d.raw)
    const attempt = (seen.get(String(eventId)) ?? 0) + 1
    seen.set(String(eventId), attempt)
    run.deliveries.push({
      at: run.sim.clock.now,
      receiver: r.name,
      eventId,
      type,
      status: d.status,
      attempt,
      signature,
      ...(d.replay ? { replay: d.replay } : {}),
      ...(created === undefined ? {} : { created }),
    })
  }
}

/**
 * Mounts a receiver of the scenario's setup on the step runner: the client module's (or the reference)
 * receiver, verifying with the secrets its destination was seen with, every delivery recorded.
 *
 * @example
 * await mountReceiver(run, { name: 'shop', url: 'https://shop.test/hooks', client: 'reference', state: 'up' })
 */
export async function mountReceiver(run: ScenarioRun, r: ReceiverSetup): Promise<void> {
  const module = r.client === 'reference' ? run.client : await loadClientModule(r.client, run.baseDir)
  const factory = module.receiver ?? referenceClient.receiver
  const secrets = () => {
    const dest = r.destination === undefined ? undefined : run.destinations.get(r.destination)
    return dest === undefined ? [] : [...(run.secretsByDestination.get(dest) ?? [])]
  }
  const inner = factory?.({
    sim: run.sim,
    name: r.name,
    url: r.url,
    secrets,
    prefix: run.sim.service.kernel.prefix,
    processed: (id) => run.processed.push({ receiver: r.name, eventId: id }),
  })
  if (inner === undefined) throw new StepFailure(`receiver '${r.name}': no receiver factory`)
  run.runner.mount({
    name: r.name,
    url: r.url,
    handler: (req) => inner(req),
    down: r.state === 'down',
    downStatus: r.status,
    onDelivery: recorder(run, r, secrets),
  })
}
