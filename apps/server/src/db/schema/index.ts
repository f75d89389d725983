// The whole schema, for drizzle's relational queries and for drizzle-kit.
export * from './accounts';
export * from './courses';
export * from './classes';
export * from './outbox';
export * from './staff';
export * from './recordings';
export * from './learning';
export * from './notifications';
export * from './whiteboards';
export * from './polls';
export * from './breakouts';
