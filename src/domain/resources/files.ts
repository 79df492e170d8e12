import type { ResourceDeclaration } from '../engine/declaration.js'

/** File metadata: list and retrieve (uploads go to the files host, which the simulator does not serve). */
export const files: ResourceDeclaration = {
  type: 'File',
  object: 'file',
  idPrefix: 'file',
  only: ['retrieve', 'list'],
}
