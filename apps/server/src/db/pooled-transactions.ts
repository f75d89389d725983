// drizzle-orm 0.45's node-postgres transaction checks a client out of the pool, sends BEGIN, and only
// then enters the try whose finally releases the client. When the connection dies between checkout and
// BEGIN (PostgreSQL restarted, pg_terminate_backend, a failover), BEGIN throws and the client is never
// released: the pool counts it as busy for ever, and after `max` such losses every query waits for good
// (and pool.end() never returns). This is the same transaction with BEGIN inside the try, and a client
// whose transaction failed released *with* the error, so the pool destroys it instead of lending out a
// connection in an unknown state.
import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';

interface SessionInternals {
  client: pg.Pool | pg.PoolClient;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}
type ConfiguredTransaction = { getTransactionConfigSQL(config: unknown): ReturnType<typeof sql> };

let installed = false;

export function releaseClientsOfFailedTransactions(): void {
  if (installed) return;
  installed = true;
  NodePgSession.prototype.transaction = async function transaction(this: unknown, body: (tx: never) => Promise<unknown>, config?: unknown) {
    const self = this as SessionInternals;
    const pooled = self.client instanceof pg.Pool || Object.getPrototypeOf(self.client).constructor.name.includes('Pool');
    const client = pooled ? await (self.client as pg.Pool).connect() : null;
    const session = client ? new NodePgSession(client, self.dialect, self.schema, self.options) : (this as NodePgSession<never, never>);
    const tx = new NodePgTransaction(self.dialect, session, self.schema as never);
    // Whether the connection ended the transaction cleanly (COMMIT or ROLLBACK answered) and may be lent again.
    let reusable = false;
    try {
      const settings = config ? sql` ${(tx as unknown as ConfiguredTransaction).getTransactionConfigSQL(config)}` : undefined;
      await tx.execute(sql`begin${settings}`);
      try {
        const result = await body(tx as never);
        await tx.execute(sql`commit`);
        reusable = true;
        return result;
      } catch (error) {
        // The body's error is the one worth reporting; a ROLLBACK that fails only marks the connection.
        reusable = await tx.execute(sql`rollback`).then(
          () => true,
          () => false,
        );
        throw error;
      }
    } finally {
      client?.release(reusable ? undefined : new Error('connection lost inside a transaction'));
    }
  } as typeof NodePgSession.prototype.transaction;
}
