/**
 * `service-sim/harness`: scenarios, replay and fault injection for property tests and CI.
 * (Entry file created by the packaging work; the harness owns what it exports.)
 *
 * @example
 * import { loadScenarioFile, runScenario } from 'service-sim/harness'
 * const result = await runScenario(loadScenarioFile('scenarios/default.yaml'))
 */
export { loadScenarioFile, parseScenarioText } from './scenario/load-scenario.js'
export type { RunResult } from './scenario/run-result.js'
export { type RunOptions, runScenario } from './scenario/run-scenario.js'
export type { Scenario } from './scenario/schema.js'
