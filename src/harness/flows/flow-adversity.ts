import type { Simulator } from '#simulator/index.js'
import type { FlowDeployment } from './flow-deploy.js'
import { forgeFlowDelivery, forgeryTarget, latestAimed, type SentEvent, sendForged } from './flow-forgery.js'
import type { FlowStep } from './flow-program.js'

/** What the adversity steps act with in a flow run. */
export interface AdversityTools {
  readonly sim: Simulator
  readonly destination: string
  /** The Connect endpoint, which alone is sent (and resends) the connected accounts' events, when the run has one. */
  readonly connectDestination?: string | undefined
  readonly url: string
  readonly deployment: FlowDeployment
  /** Events the destination was sent, oldest first. */
  readonly sent: readonly SentEvent[]
  /** Event ids the harness's attacker made (never counted as the provider's). */
  readonly forged: Set<string>
  /** The app's receiver (the one genuine deliveries reach). */
  readonly receive: (request: Request) => Promise<Response>
  readonly advance: (ms: number) => Promise<void>
}

/** The endpoint an event was sent to: a connected account's (it carries `account`) went to the Connect one. */
function endpointOf(tools: AdversityTools, event: SentEvent): string {
  return tools.connectDestination !== undefined && typeof event.body.account === 'string'
    ? tools.connectDestination
    : tools.destination
}

/**
 * Runs a step of the adversity kinds (`redeploy`, `roll_secret`, `forge`, `redeliver`); undefined
 * for any other kind, else the step's note ('' when there is nothing to say).
 *
 * @example
 * const note = await runAdversityStep(tools, { kind: 'roll_secret', redeployAfterMs: 5_000 })
 */
export async function runAdversityStep(tools: AdversityTools, step: FlowStep): Promise<string | undefined> {
  const { sim, deployment } = tools
  switch (step.kind) {
    case 'redeploy':
      deployment.deploy('deploy')
      return ''
    case 'roll_secret':
      // The operator rolls the secret, then redeploys with it after a while, inside the overlap: the
      // steps in between meet an app holding the old secret while deliveries are signed with both.
      deployment.roll(step.redeployAfterMs)
      return ''
    case 'forge': {
      const template = forgeryTarget(sim, tools.sent, step.aim)
      if (template === undefined) return 'nothing to forge yet'
      const n = tools.forged.size + 1
      const secrets = sim.admin.signingSecrets(endpointOf(tools, template))
      const forged = forgeFlowDelivery(sim, tools.url, secrets, template, step.forgery, n)
      tools.forged.add(forged.event)
      return sendForged(sim, tools.receive, forged, step.forgery)
    }
    case 'redeliver': {
      const e = latestAimed(tools.sent, step.aim)
      if (e === undefined) return 'nothing sent yet'
      try {
        void sim.admin.resend(e.id, endpointOf(tools, e)).catch(() => undefined)
      } catch {
        return `${e.id} too old to resend`
      }
      await tools.advance(0)
      return `${e.type} ${e.id}`
    }
    default:
      return undefined
  }
}
