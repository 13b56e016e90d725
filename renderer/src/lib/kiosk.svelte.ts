import type { Connectivity, KioskEvent, KioskOrder, KioskSettings, OutboxItem, SessionState } from '../../../shared/kiosk-api.ts';
import type { Bridge } from './bridge.ts';
import { i18n } from './i18n.svelte.ts';
import { mergeOutbox } from './outbox-merge.ts';

/**
 * The app's state shared by every screen (style guide 15): small class, $state.raw for API payloads, I/O injected
 * through the bridge. Screens read it and call `bridge.api` for actions.
 */
export class KioskState {
  session = $state.raw<SessionState | null>(null);
  settings = $state.raw<KioskSettings | null>(null);
  connectivity = $state.raw<Connectivity>({ platform: 'online', relay: 'live', lastContactAt: null, relayProblem: null });
  outbox = $state.raw<OutboxItem[]>([]);
  /** The newest state of every order an event or a call told us about, by id. */
  orders = $state.raw<Record<string, KioskOrder>>({});

  constructor(readonly bridge: Bridge) {}

  async init(): Promise<void> {
    this.bridge.subscribe((event) => this.apply(event));
    const [session, settings, outbox, connectivity] = await Promise.all([
      this.bridge.api.getSession({}),
      this.bridge.api.getSettings({}),
      this.bridge.api.listOutbox({}),
      this.bridge.api.getConnectivity({}),
    ]);
    // The kiosk's language first (issue 14: its words load on demand), so the screens that wait for the session and
    // the settings appear in it, never in the default language for a moment.
    if (settings.ok) await i18n.use(settings.value.language);
    if (connectivity.ok) this.connectivity = connectivity.value;
    if (session.ok) this.session = session.value;
    if (settings.ok) this.settings = settings.value;
    if (outbox.ok) this.outbox = outbox.value;
  }

  remember(order: KioskOrder): void {
    this.orders = { ...this.orders, [order.id]: order };
  }

  apply(event: KioskEvent): void {
    if (event.type === 'order.updated') this.remember(event.order);
    else if (event.type === 'outbox.changed') this.outbox = mergeOutbox(this.outbox, event.changed);
    else if (event.type === 'connectivity.changed') this.connectivity = event.connectivity;
    else if (event.type === 'session.changed') this.session = event.session;
  }

  /** Items still waiting or refused: what the offline banner counts. */
  get pending(): OutboxItem[] {
    return this.outbox.filter((item) => item.state === 'queued' || item.state === 'sending' || item.state === 'failed');
  }
}

