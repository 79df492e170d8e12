/**
 * SHA-256 in TypeScript with a state that can be exported and resumed: what a JSON snapshot
 * carries of the trace's running digest (node's native `Hash` cannot export its mid-state). A
 * simulator that never snapshots keeps hashing natively; one loaded from a JSON snapshot continues
 * with this implementation, so `trace.hash()` stays the SHA-256 of the whole trace text either way.
 *
 * @example
 * const h = new Sha256()
 * h.update('abc')
 * const resumed = Sha256.resume(h.state()) // same digest as h from here on
 */
export interface Sha256State {
  /** The eight chaining words. */
  readonly h: readonly number[]
  /** Bytes fed so far. */
  readonly bytes: number
  /** The bytes of the unfinished block, base64. */
  readonly pending: string
}

// Int32 arrays, not Uint32: words above 2^31 read from a Uint32Array are not small integers in V8,
// which boxes them as doubles in the compression loop; the bits are the same.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])
const INIT = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

// Strings are encoded into one reused buffer (at most 3 UTF-8 bytes per UTF-16 unit, lone
// surrogates replaced as Buffer.from does): the trace feeds request bodies of tens of KB, and a
// fresh buffer per update is garbage the collector then has to chase. Only read before the next call.
let scratch = Buffer.allocUnsafe(64 * 1024)

function utf8(text: string): Uint8Array {
  if (text.length * 3 > scratch.length) {
    if (text.length * 3 > 4 * 1024 * 1024) return Buffer.from(text, 'utf8')
    scratch = Buffer.allocUnsafe(text.length * 3)
  }
  return scratch.subarray(0, scratch.write(text, 0, 'utf8'))
}

export class Sha256 {
  private readonly h = new Int32Array(INIT)
  private readonly block = new Uint8Array(64)
  private readonly w = new Int32Array(64)
  private fill = 0
  private bytes = 0

  static resume(state: Sha256State): Sha256 {
    const s = new Sha256()
    s.h.set(state.h)
    const pending = Buffer.from(state.pending, 'base64')
    s.block.set(pending)
    s.fill = pending.length
    s.bytes = state.bytes
    return s
  }

  state(): Sha256State {
    return {
      h: Array.from(this.h, (x) => x >>> 0),
      bytes: this.bytes,
      pending: Buffer.from(this.block.subarray(0, this.fill)).toString('base64'),
    }
  }

  copy(): Sha256 {
    return Sha256.resume(this.state())
  }

  update(text: string | Uint8Array): this {
    const data = typeof text === 'string' ? utf8(text) : text
    this.bytes += data.length
    let i = 0
    if (this.fill > 0) {
      const take = Math.min(64 - this.fill, data.length)
      this.block.set(data.subarray(0, take), this.fill)
      this.fill += take
      i = take
      if (this.fill < 64) return this
      this.compress(this.block, 0)
      this.fill = 0
    }
    const whole = i + ((data.length - i) & ~63)
    if (whole > i) compressBlocks(this.h, this.w, data, i, whole)
    i = whole
    if (i < data.length) {
      this.block.set(data.subarray(i), 0)
      this.fill = data.length - i
    }
    return this
  }

  digest(): string {
    const c = this.copy()
    const bits = c.bytes * 8
    const pad = new Uint8Array((c.fill < 56 ? 56 : 120) - c.fill + 8)
    pad[0] = 0x80
    const view = new DataView(pad.buffer)
    view.setUint32(pad.length - 8, Math.floor(bits / 0x100000000))
    view.setUint32(pad.length - 4, bits >>> 0)
    c.update(pad)
    return Buffer.from(new Uint8Array(c.h.buffer.slice(0)).map((_, i, a) => a[(i & ~3) + 3 - (i & 3)] as number)).toString('hex')
  }

  private compress(data: Uint8Array, offset: number): void {
    compressBlocks(this.h, this.w, data, offset, offset + 64)
  }
}

/**
 * Compresses the 64-byte blocks of `data` from `offset` to `end` into `h`, in one call: the
 * chaining words stay in locals between blocks and every word is an int32 (no boxed doubles).
 */
function compressBlocks(h: Int32Array, w: Int32Array, data: Uint8Array, offset: number, end: number): void {
  let h0 = h[0] as number
  let h1 = h[1] as number
  let h2 = h[2] as number
  let h3 = h[3] as number
  let h4 = h[4] as number
  let h5 = h[5] as number
  let h6 = h[6] as number
  let h7 = h[7] as number
  for (let j = offset; j < end; j += 64) {
    for (let t = 0, k = j; t < 16; t++, k += 4) {
      w[t] =
        ((data[k] as number) << 24) | ((data[k + 1] as number) << 16) | ((data[k + 2] as number) << 8) | (data[k + 3] as number)
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15] as number
      const y = w[t - 2] as number
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) | 0
    }
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    let f = h5
    let g = h6
    let hh = h7
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const ch = (e & f) ^ (~e & g)
      const t1 = (hh + S1 + ch + (K[t] as number) + (w[t] as number)) | 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const maj = (a & b) ^ (a & c) ^ (b & c)
      const t2 = (S0 + maj) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
    h5 = (h5 + f) | 0
    h6 = (h6 + g) | 0
    h7 = (h7 + hh) | 0
  }
  h[0] = h0
  h[1] = h1
  h[2] = h2
  h[3] = h3
  h[4] = h4
  h[5] = h5
  h[6] = h6
  h[7] = h7
}
