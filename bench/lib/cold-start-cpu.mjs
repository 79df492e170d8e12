// Preloaded (`node --import`) into every child of bench/cold-start.bench.ts, each side alike: on
// exit it writes the process's CPU time (user + system, all threads, in ms) to file descriptor 3,
// so the bench reads it without a line in the measured files. On a shared machine CPU time moves
// less with other processes' load than the wall clock does.
import { writeSync } from 'node:fs'

process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  writeSync(3, `${(user + system) / 1000}\n`)
})
