import type { OutboxItem } from '../../../shared/kiosk-api.ts';

/**
 * issue 14: `outbox.changed` carries only the items that changed; each replaces the item of its id (or joins the list,
 * in creation order), and a dropped one leaves it.
 */
export function mergeOutbox(list: readonly OutboxItem[], changed: readonly OutboxItem[]): OutboxItem[] {
  const byId = new Map(list.map((item) => [item.id, item]));
  for (const item of changed) {
    if (item.state === 'dropped') byId.delete(item.id);
    else byId.set(item.id, item);
  }
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}
