import type { Connectivity, KioskEvent, KioskOrder, KioskSettings, OutboxItem, SessionState } from '../../../shared/kiosk-api.ts';
import type { KioskApi, KioskMethod, Result } from '../../../shared/kiosk-api.ts';
import { KIOSK_METHOD_NAMES } from '../../../shared/kiosk-names.ts';
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
  /**
   * issue 15 "a page opened without its key says so": set by the first answer refusing this launch's key
   * (launch_secret_refused); App then shows one message saying what to do instead of screens that fail at each tap.
   */
  keyRefused = $state(false);
  readonly bridge: Bridge;

  constructor(bridge: Bridge) {
    const api = Object.fromEntries(
      KIOSK_METHOD_NAMES.map((method: KioskMethod) => [
        method,
        async (input: unknown) => {
          const result = (await (bridge.api[method] as (input: unknown) => Promise<Result<unknown>>)(input)) as Result<unknown>;
          if (!result.ok && result.error.code === 'launch_secret_refused') this.keyRefused = true;
          return result;
        },
      ]),
    ) as unknown as KioskApi;
    this.bridge = { api, subscribe: (listener) => bridge.subscribe(listener), firstScreenShown: () => bridge.firstScreenShown?.() };
  }

  /**
   * The first reads. issue 14 "cold start": main.ts starts them with the page's first script, while the language loads
   * and before the first mount, and what the keypad needs (the session, the settings and their language) is all they
   * wait for: the outbox and the connectivity fill the status line when they answer (its height is fixed, issue 15,
   * so nothing moves) and their events keep them current from here on.
   */
  async init(): Promise<void> {
    this.bridge.subscribe((event) => this.apply(event));
    void this.bridge.api.getConnectivity({}).then((connectivity) => {
      if (connectivity.ok) this.connectivity = connectivity.value;
    });
    void this.bridge.api.listOutbox({}).then((outbox) => {
      if (outbox.ok) this.outbox = outbox.value;
    });
    const [session, settings] = await Promise.all([this.bridge.api.getSession({}), this.bridge.api.getSettings({})]);
    // The kiosk's language first (issue 14: its words load on demand), so the screens that wait for the session and
    // the settings appear in it, never in the default language for a moment.
    if (settings.ok) await i18n.use(settings.value.language);
    if (session.ok) this.session = session.value;
    if (settings.ok) this.settings = settings.value;
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

