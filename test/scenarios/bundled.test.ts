import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scenarioJsonSchemaText } from '../../src/harness/scenario/json-schema.js'
import { loadScenarioFile, parseScenarioText } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'
import { ScenarioError } from '../../src/harness/scenario/scenario-error.js'

const DIR = join(import.meta.dirname, '..', '..', 'scenarios')
const files = readdirSync(DIR).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== 'scenario.schema.json')

describe('bundled scenarios', () => {
  for (const file of files) {
    it(`${file}: every expectation holds`, async () => {
      const result = await runScenario(loadScenarioFile(join(DIR, file)), { baseDir: DIR })
      expect(result.verdicts.filter((v) => !v.ok)).toEqual([])
      expect(result.verdicts.length).toBeGreaterThan(0)
    })
  }

  it('scenario.schema.json is the JSON Schema of the zod schema (run npm run scenario-schema)', () => {
    expect(readFileSync(join(DIR, 'scenario.schema.json'), 'utf8')).toBe(scenarioJsonSchemaText())
  })
})

describe('scenario errors', () => {
  const problems = (text: string) => {
    try {
      parseScenarioText(text, 'x.yaml')
    } catch (error) {
      if (error instanceof ScenarioError) return error.message
      throw error
    }
    throw new Error('no error')
  }

  it('names an unknown field and its line', () => {
    expect(problems('name: a\nsetup:\n  acounts: []\n')).toBe("x.yaml:3: setup: unknown field 'acounts'")
  })

  it('refuses a step with two actions', () => {
    expect(problems('name: a\nworkload:\n  - { advance: 1m, settle: true }\n')).toContain(
      'workload[0]: expected exactly one action, found advance and settle',
    )
  })

  it('refuses a missing name and a fault of unknown kind', () => {
    const m = problems('workload: []\nfaults:\n  schedule: [{ step: 1, fault: meteor }]\n')
    expect(m).toContain('name: is required')
    expect(m).toContain('faults.schedule[0].fault: expected one of "session_expiry"')
  })
})
