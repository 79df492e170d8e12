import { verifySignature } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'

/**
 * Whether a delivery was signed by the provider with a secret one of the run's endpoints has now
 * (the platform's, or the Connect endpoint's), within the tolerance.
 *
 * @example
 * genuineDelivery(sim, [destination], request, raw) // false for a forgery
 */
export function genuineDelivery(sim: Simulator, destinations: readonly string[], request: Request, raw: string): boolean {
  const header = request.headers.get(`${sim.service.kernel.prefix}-Signature`)
  return destinations.some((destination) => {
    try {
      verifySignature(raw, header, sim.admin.signingSecrets(destination), { now: sim.clock.now })
      return true
    } catch {
      return false
    }
  })
}
