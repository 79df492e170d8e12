import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js'

export const API = 'https://api.service.test'

/** A simulator and small helpers to call it with the platform's test key. */
export function setup(options: SimulatorOptions = {}) {
  const sim = createSimulator({ seed: 7, ...options })
  const key = sim.platform.secretKey.test
  const auth = { Authorization: `Bearer ${key}` }
  return {
    sim,
    key,
    auth,
    get: (path: string, headers: Record<string, string> = {}) => sim.fetch(`${API}${path}`, { headers: { ...auth, ...headers } }),
    form: (path: string, body: string, headers: Record<string, string> = {}) =>
      sim.fetch(`${API}${path}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body,
      }),
    json: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      sim.fetch(`${API}${path}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  }
}

export async function errorOf(res: Response): Promise<{ type: string; code?: string; message: string; param?: string }> {
  const body = (await res.json()) as { error: { type: string; code?: string; message: string; param?: string } }
  return body.error
}

export type { Simulator }
