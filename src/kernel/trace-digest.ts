import { createHash } from 'node:crypto'

/** Characters of records gathered before they are folded into the chain. */
export const FOLD_AT = 64 * 1024
/** Characters of records gathered before they are hashed into the running digest state. */
export const HASH_STEP = 8 * 1024

/**
 * A running SHA-256 (node's `Hash`), named here by what the trace uses of it, so the declarations
 * of the package need no node typings.
 */
export interface DigestState {
  copy(): DigestState
  update(data: string): DigestState
  digest(encoding: 'hex'): string
}

/**
 * A running SHA-256 that has read `chain`: records are added to it as they are hashed.
 *
 * @example
 * digestStateOf('').update('0;5;4:http{}\n').digest('hex') // traceDigest('', '0;5;4:http{}\n')
 */
export function digestStateOf(chain: string): DigestState {
  return createHash('sha256').update(chain)
}

/**
 * The digest the trace keeps: `chain` is the SHA-256 (hex) of the previous `chain` followed by a
 * batch of records, a batch ending at the first record that takes it to 64 Ki characters or more
 * (so the batches, and the digest, depend only on the records); `hash()` is the SHA-256 of the
 * last `chain` followed by the records since. Native hashing, and a state that is two strings:
 * a JSON snapshot carries it, a fork shares it, and nothing is hashed twice.
 *
 * @example
 * traceDigest('', '{"seq":0,...}\n') // 64 hex characters
 */
export function traceDigest(chain: string, records: string): string {
  return createHash('sha256').update(chain).update(records).digest('hex')
}
