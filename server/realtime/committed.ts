// Proof that a write committed. Everything that announces a change to clients (`publish`,
// `publishNewMessages`, `roomChanged`) takes one, and only a commit hands one out: `transaction`
// (server/transaction.ts) once its transaction committed, and the message store's own commits
// (services/message-store/). An event published inside a transaction, where no proof exists yet,
// does not compile; lint keeps every other module from minting one (.dependency-cruiser.cjs).
declare const proof: unique symbol;

export interface Committed {
  readonly [proof]: true;
}

/** Only server/transaction.ts and services/message-store/ call this, right after their commit returned. */
export function mintCommitted(): Committed {
  return Object.freeze({}) as Committed;
}
