import type { Simulator } from '#simulator/index.js'

/** How long the old signing secret keeps signing after a roll in a flow (the dashboard's longest overlap). */
export const FLOW_ROLL_OVERLAP_MS = 24 * 3_600_000

/** A client as a flow subject deploys it: whatever answers the deliveries. */
export interface DeployedClient {
  handler(request: Request): Response | Promise<Response>
}

/**
 * The app of a flow run as an operator runs it: deployed with the signing secrets in its
 * environment at that moment (as an environment variable is read when a process starts), redeployed
 * (its memory lost, its durable store kept) when a step says so, and its endpoint's signing secret
 * rolled. Deliveries reach the instance deployed now; a delivery already being handled finishes on
 * the instance it started on (a graceful shutdown drains it).
 *
 * @example
 * const deployment = new FlowDeployment(sim, destination, (secrets) => subject.start(runWith(secrets)))
 * deployment.deploy('start')
 */
export class FlowDeployment {
  /** Redeploys so far (0 before the first redeploy). */
  deploys = 0
  /** Virtual time of the latest redeploy (or the first deploy). */
  deployedAt = 0
  /** Virtual time of the latest secret roll the running instance has not been redeployed since, if any. */
  rolledAt: number | undefined
  private client: DeployedClient | undefined
  private secrets: readonly string[] = []
  private connectSecrets: readonly string[] = []

  /** `connectDestination`: the run's Connect endpoint, whose secret the app holds beside the platform one's. */
  constructor(
    private readonly sim: Simulator,
    private readonly destination: string,
    private readonly build: () => DeployedClient,
    private readonly connectDestination?: string,
  ) {}

  /** Signing secrets in the running instance's environment, oldest first, newest last. */
  deployedSecrets(): readonly string[] {
    return this.secrets
  }

  /** The Connect endpoint's signing secrets in the running instance's environment (none without one). */
  deployedConnectSecrets(): readonly string[] {
    return this.connectSecrets
  }

  /** Builds an instance with the secrets active now; traced as `harness.restart` unless it is the first. */
  deploy(reason: 'start' | 'deploy' | 'secret_rolled'): void {
    this.secrets = this.sim.admin.signingSecrets(this.destination).reverse()
    if (this.connectDestination !== undefined)
      this.connectSecrets = this.sim.admin.signingSecrets(this.connectDestination).reverse()
    if (reason !== 'start') {
      this.deploys += 1
      this.sim.service.kernel.trace.append('harness.restart', { subject: 'flow', reason, restart: this.deploys })
    }
    this.deployedAt = this.sim.clock.now
    this.rolledAt = undefined
    this.client = this.build()
  }

  /**
   * Rolls the endpoint's signing secret (the old one signs beside the new for
   * `FLOW_ROLL_OVERLAP_MS`) and redeploys the app with the new one `redeployAfterMs` of virtual time
   * later, inside the overlap: whatever the steps in between cause is delivered to an app holding
   * the old secret only, under a header signed with both. A Connect endpoint's secret is rolled
   * with it (an operator rotating the app's secrets rotates both).
   */
  roll(redeployAfterMs: number): void {
    this.sim.admin.rollSecret(this.destination, { overlapMs: FLOW_ROLL_OVERLAP_MS })
    if (this.connectDestination !== undefined)
      this.sim.admin.rollSecret(this.connectDestination, { overlapMs: FLOW_ROLL_OVERLAP_MS })
    this.rolledAt ??= this.sim.clock.now
    this.sim.service.kernel.trace.append('harness.flow.roll', { destination: this.destination })
    this.sim.clock.setTimeout(() => this.deploy('secret_rolled'), Math.min(redeployAfterMs, FLOW_ROLL_OVERLAP_MS - 60_000))
  }

  /** Hands a request to the instance deployed now. */
  handle(request: Request): Response | Promise<Response> {
    if (this.client === undefined) return new Response('not deployed', { status: 503 })
    return this.client.handler(request)
  }
}
