import { readFileSync } from 'node:fs'
import { fixtureFailure, type Simulator } from '#simulator/index.js'
import { UsageError } from './usage-error.js'

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
