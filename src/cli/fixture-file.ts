import { readFileSync } from 'node:fs'
import type { Simulator } from '../simulator/create-simulator.js'
import type { FixtureResult } from '../simulator/fixtures.js'
import { UsageError } from './usage-error.js'

/**
 * A failed fixture run in one line: which request (position, name, method and path) and why.
 *
 * @example
 * fixtureFailure(result) // "fixture #2 'price' (POST /v1/prices) failed: No such product: 'prod_x' (404)"
 */
export function fixtureFailure(result: FixtureResult): string {
  const f = result.failed
  if (f === undefined) return 'fixtures ran'
  if (f.index < 0) return f.reason
  const what = f.method === '' ? '' : ` (${f.method} ${f.path})`
  return `fixture #${f.index + 1}${f.name === undefined ? '' : ` '${f.name}'`}${what} failed: ${f.reason}${f.status === 0 ? '' : ` (${f.status})`}`
}

/**
 * `serve --fixtures file.json`: runs the file through the simulator's API (`${.env:NAME}` from the
 * environment) and returns how many requests ran; a file that cannot be read or a request that
 * fails is a usage error naming it.
 *
 * @example
 * await loadFixtureFile(sim, 'seed.json') // 4
 */
export async function loadFixtureFile(sim: Simulator, file: string): Promise<number> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--fixtures: cannot read ${file}: ${(error as Error).message}`)
  }
  const result = await sim.admin.loadFixtures(text, { env: process.env })
  if (!result.ok) throw new UsageError(`--fixtures ${file}: ${fixtureFailure(result)}`)
  return result.steps.length
}
