/**
 * The alea generator of seedrandom, imported by its own file: the package's index also loads six
 * generators the simulator never uses, which cost a fresh process about 5 ms of CPU.
 *
 * @example
 * import alea from 'seedrandom/lib/alea.js'
 * alea('42/ids', { state: true })() // the same float in any process
 */
declare module 'seedrandom/lib/alea.js' {
  import type seedrandom from 'seedrandom'

  const alea: seedrandom['alea']
  export default alea
}
