// Tinypool worker entry when running from the TypeScript sources: worker threads do not inherit
// tsx's loader, so register it here, then hand over to the real worker.
import { register } from 'tsx/esm/api'

register()
const worker = await import('./fuzz-worker.ts')
export default worker.default
