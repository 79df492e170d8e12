// `service-sim` from the sources (bin/service-sim.js prefers dist/, which may be stale or absent in
// a working tree): the bench measures the code in front of it.
import { main } from '../../src/cli/main.js'

process.exitCode = await main(process.argv.slice(2))
