import type { SimServer } from './http-server.js'
import type { SessionRecorder } from './session-record.js'

/** What to finish before the server closes. */
export interface StopWork {
  readonly recorder: SessionRecorder | undefined
  /** `--state`: the file the simulator served at the end is saved to. */
  readonly stateFile: string | undefined
}

/** Closes the server; keep-alive sockets would hold close() open. */
function close(server: SimServer, stop: () => void): void {
  server.close(() => stop())
  ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
}

/** Ends the record: due work up to now runs first, so the end line's time and trace hash are those of a run at rest. */
function endRecord(server: SimServer, r: SessionRecorder, fail: () => void): Promise<void> {
  return server.host.advance(0).then(
    () => {
      r.end(server.host.sim)
      process.stdout.write(`session recorded in ${r.file} (replay: service-sim replay --served ${r.file})\n`)
    },
    (error: unknown) => {
      fail()
      process.stderr.write(`service-sim: session record not finished: ${(error as Error).message}\n`)
    },
  )
}

/** `--state`: the simulator served now (after any reset) is saved, atomically, before closing. */
function saveState(server: SimServer, stateFile: string, fail: () => void): Promise<void> {
  return server.host.snapshot().then(
    () => void process.stdout.write(`state saved to ${stateFile}\n`),
    (error: unknown) => {
      fail()
      process.stderr.write(`service-sim: state not saved to ${stateFile}: ${(error as Error).message}\n`)
    },
  )
}

/**
 * Serves until SIGINT or SIGTERM, then finishes the record or saves the state and closes the
 * server; answers the exit code (1 when what had to be written was not).
 *
 * @example
 * const code = await stopOnSignal(server, { recorder: undefined, stateFile: undefined })
 */
export async function stopOnSignal(server: SimServer, work: StopWork): Promise<number> {
  let code = 0
  const fail = () => {
    code = 1
  }
  await new Promise<void>((stop) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      const { recorder, stateFile } = work
      if (recorder !== undefined) return void endRecord(server, recorder, fail).finally(() => close(server, stop))
      if (stateFile === undefined) return close(server, stop)
      void saveState(server, stateFile, fail).finally(() => close(server, stop))
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
  return code
}
