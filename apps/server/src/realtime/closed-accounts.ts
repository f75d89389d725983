// A deactivated account's live meeting sockets are closed in every process: the change bus carries
// the deactivation (admin/people.ts) and each process closes the sockets it holds. Reconnecting fails,
// as the handshake refuses a deactivated account (app.accessTokens.userFor).
import type { ChangeBus } from '../infrastructure/change-bus';
import type { RealtimeServer } from './sockets';

export function closeSocketsOfClosedAccounts(io: RealtimeServer, changes: ChangeBus): () => void {
  return changes.subscribe((change) => {
    if (change.kind !== 'account-closed') return;
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.user?.id === change.userId) socket.disconnect(true);
    }
  });
}
