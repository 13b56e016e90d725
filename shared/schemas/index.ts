export * from './common.ts';
export * from './order.ts';
export * from './oauth.ts';
export * from './tokenize.ts';
export * from './notification.ts';
export * from './sandbox-control.ts';
