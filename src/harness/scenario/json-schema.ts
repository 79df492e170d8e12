import { z } from 'zod'
import { scenarioSchema } from './schema.js'

/**
 * The scenario schema as JSON Schema (draft 2020-12), for editors; `scenarios/scenario.schema.json`
 * holds this text and a test keeps it up to date.
 *
 * @example
 * writeFileSync('scenarios/scenario.schema.json', scenarioJsonSchemaText())
 */
export function scenarioJsonSchemaText(): string {
  const schema = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return `${JSON.stringify({ ...schema, title: 'service-sim scenario', $id: 'https://service-sim.dev/scenario.schema.json' }, null, 2)}\n`
}
