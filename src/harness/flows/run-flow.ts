import type { FlowProgram } from './flow-program.js'
import { refuseBadFlowProgram } from './flow-program-input.js'
import { type FlowReport, type FlowRunOptions, type FlowSubject, runFlowProgram } from './flow-run.js'
import { refuseBadDeterministicCrypto } from './flow-run-globals.js'

/**
 * Runs one billing flow program against a subject on a fork of the prepared setup: each step
 * through the step runner (its faults armed), then `FLOW_STEP_SETTLE_MS` of deliveries and the
 * subject's checkpoint; at the end the receiver is brought up, `FLOW_FINAL_SETTLE_MS` pass, the
 * final checkpoint is taken and the subject's checkers judge the trace. Same program: same hash.
 * A program written by hand is checked first (`HarnessInputError` naming the step).
 *
 * @example
 * const report = await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}), {})
 */
export async function runFlow(program: FlowProgram, subject: FlowSubject, options: FlowRunOptions = {}): Promise<FlowReport> {
  refuseBadFlowProgram('runFlow', program)
  refuseBadDeterministicCrypto('runFlow', (options as Partial<FlowRunOptions> | null | undefined)?.deterministicCrypto)
  return runFlowProgram(program, subject, options)
}
