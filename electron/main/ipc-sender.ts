import { isAppUrl } from './app-protocol.ts';

/** The parts of an IPC event the check reads (Electron's IpcMainInvokeEvent / IpcMainEvent). */
export interface IpcSenderEvent {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/**
 * Whether an IPC message comes from us (issue 6 "Every IPC handler checks the sender"; Electron security checklist 17;
 * style guide 4 after VS Code's validateEvent): sent by one of the app's own windows, from its top frame (never a
 * subframe, whatever its origin), by a page of the app's origin (kiosk://app). A frame that is gone (null) fails.
 */
export function isTrustedSender(event: IpcSenderEvent, ownContents: ReadonlySet<number>): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (!ownContents.has(event.sender.id)) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url);
}
