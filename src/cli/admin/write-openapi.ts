import { writeFileSync } from 'node:fs'
import { adminOpenApiText } from './openapi.js'

// `npm run admin-openapi`: regenerates the committed document from the route declarations.
writeFileSync(new URL('../../../docs/admin-api.openapi.yaml', import.meta.url), adminOpenApiText())
