import { writeFileSync } from 'node:fs'
import { scenarioJsonSchemaText } from './json-schema.js'

// `npm run scenario-schema`: regenerates scenarios/scenario.schema.json from the zod schema.
writeFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), scenarioJsonSchemaText())
