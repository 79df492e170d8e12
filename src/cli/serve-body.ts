import type { IncomingMessage } from 'node:http'
import { MAX_BODY_BYTES } from './admin/host.js'

/**
 * The body as text, or undefined as soon as it is (or declares to be) over `MAX_BODY_BYTES`.
 *
 * @example
 * const read = readNodeBody(req)
 * const text = read instanceof Promise ? await read : read
 */
export function readNodeBody(req: IncomingMessage): string | undefined | Promise<string | undefined> {
  const length = req.headers['content-length']
  // No body announced (a GET): nothing to wait for; node discards whatever it is once answered.
  if (length === undefined && req.headers['transfer-encoding'] === undefined) return ''
  if (Number(length ?? 0) > MAX_BODY_BYTES) return undefined
  // Events, not for-await: leaving a for-await loop destroys the socket before the 413 is sent.
  return new Promise((done, failed) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
      req.off('data', onData)
      req.pause()
      done(undefined)
    }
    req.on('data', onData)
    req.once('end', () =>
      done(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    )
    req.once('error', failed)
    // A client gone before the end of its body: settles the read (nobody is left to answer).
    req.once('close', () => {
      if (!req.complete) failed(new Error('client closed the connection before the end of the body'))
    })
  })
}
