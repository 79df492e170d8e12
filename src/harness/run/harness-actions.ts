import { CUSTOMER_ID_PREFIX } from '#catalogue/index.js'
import { actionStep } from '../steps/program-steps.js'
import { StepFailure } from '../steps/step-context.js'
import type { Usage } from '../subjects.js'
import { drive } from './drive.js'
import { forgeDelivery } from './forge-delivery.js'
import type { Step } from './program.js'
import { restartReceiver } from './restart-receiver.js'
import type { RunState } from './run-state.js'
import { SUBJECT_EVENT_TYPES } from './setup.js'

/** How long a rolled signing secret stays valid next to the new one. */
const ROLL_OVERLAP_MS = 24 * 3_600_000
const STATES = ['requires_payment_method', 'processing', 'succeeded'] as const

/** Moves `object` to its next state and emits its event (fanned out to the destination at once). */
function emitOne(state: RunState, object: string, amount: number): boolean {
  const next = (state.objects.get(object) ?? -1) + 1
  if (next >= STATES.length) return false
  state.objects.set(object, next)
  const status = STATES[next] as string
  // The first attempt is due now (or later, faulted).
  const event = state.sim.admin.trigger(SUBJECT_EVENT_TYPES[next] as string, {
    object: { id: object, amount, currency: 'usd', status },
  })
  state.emitted.push({ event: event.id, object, status })
  state.sim.service.kernel.trace.append('harness.emitted', { event: event.id, object, status })
  return true
}

async function report(state: RunState, step: Extract<Step, { kind: 'report' }>): Promise<void> {
  const { reporter, units, setup, sim } = state
  if (!reporter) return
  const batch: Usage[] = []
  for (let i = 0; i < step.units; i++) {
    const n = units.length + 1
    // A repeating customer is one the setup created (past its pool: a name of its own).
    const customer =
      step.customer === undefined
        ? `${CUSTOMER_ID_PREFIX}u${n}`
        : (setup.customers[step.customer] ?? `${CUSTOMER_ID_PREFIX}c${step.customer}`)
    const unit = { id: `u${n}`, customer, value: step.value }
    units.push(unit)
    batch.push(unit)
  }
  const r = await drive(sim, reporter.report(batch), state.options.reportBudgetMs ?? 2 * 3_600_000)
  // One entry per batch (not per unit): the trace hash folds every entry, and runs are many.
  // Literals without a spread, the members in the order they always had.
  const trace = sim.service.kernel.trace
  if (r.state === 'error') {
    trace.append('harness.usage', { units: batch, outcome: 'failed', error: String((r.error as Error)?.message ?? r.error) })
  } else trace.append('harness.usage', { units: batch, outcome: r.state === 'ok' ? 'acked' : 'hung' })
}

async function emit(state: RunState, object: number): Promise<void> {
  if (!state.destination) return
  if (emitOne(state, `pi_h${object}`, 1000 + object)) await state.runner.advance(0)
}

async function burst(state: RunState, events: number): Promise<void> {
  if (!state.destination) return
  // Round-robin over fresh objects: every object's first state, then the second, then the third.
  const n = Math.ceil(events / STATES.length)
  const base = state.burstObjects
  state.burstObjects += n
  for (let i = 0; i < events; i++) emitOne(state, `pi_b${base + (i % n)}`, 2000 + base + (i % n))
  await state.runner.advance(0)
}

async function resend(state: RunState, event: number, afterMs: number): Promise<void> {
  const { destination, runner, emitted, sim } = state
  if (!destination) return
  await runner.advance(afterMs)
  if (emitted.length === 0) return
  const e = emitted[event % emitted.length] as { event: string }
  try {
    void sim.admin.resend(e.event, destination).catch(() => undefined)
  } catch {
    // Older than the dashboard's window: refused at once, nothing sent.
    return
  }
  await runner.advance(0)
}

function rollSecret(state: RunState): void {
  const { destination, sim } = state
  if (!destination) return
  for (const s of sim.admin.signingSecrets(destination)) state.seenSecrets.add(s)
  sim.admin.rollSecret(destination, { overlapMs: ROLL_OVERLAP_MS })
  // The operator's redeploy with the new secret in the app's environment, well inside the overlap.
  restartReceiver(state, 'secret_rolled')
}

/** Runs one program step that is a client action of the property harness. */
async function perform(state: RunState, step: Step): Promise<void> {
  switch (step.kind) {
    case 'report':
      return report(state, step)
    case 'emit':
      return emit(state, step.object)
    case 'burst':
      return burst(state, step.events)
    case 'resend':
      return resend(state, step.event, step.afterMs)
    case 'forge':
      return forgeDelivery(state, step.forgery)
    case 'roll_secret':
      return rollSecret(state)
    case 'restart':
      return restartReceiver(state, 'deploy')
    default:
      throw new StepFailure(`'${step.kind}' is a step of its own, not a client action`)
  }
}

/**
 * The client actions of the property harness on a run (`report_usage`, `emit_event`, `emit_burst`,
 * `resend_event`, `forge_delivery`, `roll_secret`, `restart_client`): what a generated program's steps do to the
 * subjects. An action whose subject is absent does nothing.
 *
 * @example
 * await harnessAction(state, 'report_usage', { units: 2, value: 1 })
 */
export async function harnessAction(state: RunState, action: string, args: Readonly<Record<string, unknown>>): Promise<void> {
  const step = actionStep(action, args)
  if (step === undefined)
    throw new StepFailure(
      `the client has no action '${action}' (has: report_usage, emit_event, emit_burst, resend_event, forge_delivery, roll_secret, restart_client)`,
    )
  await perform(state, step)
}
