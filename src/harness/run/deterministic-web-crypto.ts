import { createHash, createHmac, KeyObject, timingSafeEqual, webcrypto } from 'node:crypto'

// Node runs Web Crypto's HMAC and digest jobs on its thread pool: two handlers awaiting them at the
// same virtual instant resume in the order the threads finish, so an in-process app that verifies
// with `crypto.subtle` (the official client's `createSubtleCryptoProvider`, a Workers-style
// verifier) made a run's trace differ from one run to the next. While held, those operations are
// computed at once with `node:crypto` and answered with settled promises; everything else (and any
// call this cannot answer byte for byte: another algorithm, a key of another kind, a bad argument)
// goes to the real method, which also words the errors. `importKey` stays real: Node imports a key
// without leaving the thread, and its keys stay real `CryptoKey`s every other method takes.

/** Web Crypto's digest names, as `node:crypto` names them. */
const HASHES: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
}

const METHODS = ['sign', 'verify', 'digest'] as const
type Method = (typeof METHODS)[number]
type AnyMethod = (this: unknown, ...args: unknown[]) => Promise<unknown>

/** Runs holding the deterministic methods; they are installed while this is above zero. */
let holders = 0
/** What each method's own property was before install (`undefined`: none, the prototype's served). */
let saved: Map<Method, PropertyDescriptor | undefined> | undefined

/** An algorithm identifier's name, upper-cased as Web Crypto compares them (`'hmac'`, `{ name: 'SHA-256' }`). */
function algorithmName(algorithm: unknown): string | undefined {
  const name = typeof algorithm === 'object' && algorithm !== null ? (algorithm as { name?: unknown }).name : algorithm
  return typeof name === 'string' ? name.toUpperCase() : undefined
}

/** The bytes of a `BufferSource` (an `ArrayBuffer` or a view of one), without copying. */
function bytesOf(data: unknown): Buffer | undefined {
  if (data instanceof ArrayBuffer) return Buffer.from(data)
  if (ArrayBuffer.isView(data) && data.buffer instanceof ArrayBuffer)
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return undefined
}

/** A result as Web Crypto answers it: an `ArrayBuffer` of its own. */
function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(bytes.length)
  new Uint8Array(out).set(bytes)
  return out
}

/** The MAC of `data` under an HMAC key allowed `usage`, or undefined when the real method must answer. */
function hmacOf(algorithm: unknown, key: unknown, data: unknown, usage: 'sign' | 'verify'): Buffer | undefined {
  if (algorithmName(algorithm) !== 'HMAC' || !(key instanceof CryptoKey)) return undefined
  const { hash, length, name } = key.algorithm as HmacKeyAlgorithm
  const nodeHash = HASHES[hash.name]
  const bytes = bytesOf(data)
  if (name !== 'HMAC' || key.type !== 'secret' || !key.usages.includes(usage) || nodeHash === undefined || bytes === undefined)
    return undefined
  const secret = KeyObject.from(key)
  // A key whose length is not whole bytes is the real method's to refuse or truncate.
  if (secret.symmetricKeySize === undefined || secret.symmetricKeySize * 8 !== length) return undefined
  return createHmac(nodeHash, secret).update(bytes).digest()
}

/** The answer of each method computed at once, or undefined when the real method must answer. */
const ANSWERS: Readonly<Record<Method, (args: readonly unknown[]) => unknown>> = {
  sign: ([algorithm, key, data]) => {
    const mac = hmacOf(algorithm, key, data, 'sign')
    return mac === undefined ? undefined : arrayBufferOf(mac)
  },
  verify: ([algorithm, key, signature, data]) => {
    const mac = hmacOf(algorithm, key, data, 'verify')
    const given = bytesOf(signature)
    if (mac === undefined || given === undefined) return undefined
    return given.length === mac.length && timingSafeEqual(given, mac)
  },
  digest: ([algorithm, data]) => {
    const nodeHash = HASHES[algorithmName(algorithm) ?? '']
    const bytes = bytesOf(data)
    return nodeHash === undefined || bytes === undefined ? undefined : arrayBufferOf(createHash(nodeHash).update(bytes).digest())
  },
}

/** How many arguments each method requires (fewer: the real method's `TypeError`). */
const ARITY: Readonly<Record<Method, number>> = { sign: 3, verify: 4, digest: 2 }

function deterministic(method: Method, subtle: object, real: AnyMethod): AnyMethod {
  return function (this: unknown, ...args: unknown[]) {
    if (this === subtle && args.length >= ARITY[method]) {
      let answer: unknown
      try {
        answer = ANSWERS[method](args)
      } catch {
        answer = undefined
      }
      if (answer !== undefined) return Promise.resolve(answer)
    }
    return real.apply(this, args)
  }
}

function install(): void {
  const subtle = webcrypto.subtle
  const before = new Map<Method, PropertyDescriptor | undefined>()
  try {
    for (const method of METHODS) {
      const real = subtle[method] as unknown as AnyMethod
      before.set(method, Object.getOwnPropertyDescriptor(subtle, method))
      // An own property on the one `SubtleCrypto` Node has: `crypto.subtle`, `globalThis.crypto.subtle`
      // and a provider that kept it before the run (the official client keeps it when made) all see it.
      Object.defineProperty(subtle, method, { value: deterministic(method, subtle, real), configurable: true, writable: true })
    }
    saved = before
  } catch {
    // A `crypto.subtle` someone froze: left real, as it was.
    saved = before
    uninstall()
  }
}

function uninstall(): void {
  const subtle = webcrypto.subtle
  for (const [method, descriptor] of saved ?? []) {
    if (descriptor === undefined) Reflect.deleteProperty(subtle, method)
    else Object.defineProperty(subtle, method, descriptor)
  }
  saved = undefined
}

/**
 * Makes Web Crypto's HMAC `sign` and `verify` and its SHA `digest` answer at once (computed with
 * `node:crypto`, byte for byte the real results, as settled promises) until the returned release
 * is called. Holds nest: the real methods come back when the last holder releases. A release
 * called twice releases once.
 *
 * @example
 * const release = holdDeterministicWebCrypto()
 * try {
 *   await runTheApp()
 * } finally {
 *   release()
 * }
 */
export function holdDeterministicWebCrypto(): () => void {
  if (holders++ === 0) install()
  let held = true
  return () => {
    if (!held) return
    held = false
    if (--holders === 0) uninstall()
  }
}
