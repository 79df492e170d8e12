// `service-sim` as the published package runs it: the compiled dist/ (the http-serve bench builds
// it first with `npm run build`, so it is never stale). bin/service-sim.js runs the sources
// through tsx in a checkout instead.
import { main } from '../../dist/cli/main.js'

process.exitCode = await main(process.argv.slice(2))
