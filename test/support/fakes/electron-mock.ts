// A MOCK of the `electron` module — the one boundary these tests cannot run here (Electron's binary cannot be
// downloaded on this machine; issue 6 "Done when"). It records what the shell asks of Electron and lets a test play
// Electron's part (emit events, invoke IPC handlers as a given frame). Nothing else in these tests is mocked: the
// kiosk core, its SQLite file, the embedded sandbox and relay are real.
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => void;

/** An Electron event: records preventDefault. */
export class MockEvent {
  defaultPrevented = false;
  constructor(readonly fields: Record<string, unknown> = {}) {
    Object.assign(this, fields);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextContentsId = 1;

export class MockFrame {
  constructor(
    public url: string,
    public parent: MockFrame | null = null,
  ) {}
}

export class MockWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  readonly loaded: string[] = [];
  readonly printed: Array<{ options: unknown }> = [];
  reloads = 0;
  crashes = 0;
  destroyed = false;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  mainFrame = new MockFrame('about:blank');
  /** What executeJavaScript answers (the receipt's readiness probe). */
  script: () => unknown = () => 123;
  /** How print() ends: [success, failureReason]. */
  printOutcome: [boolean, string] = [true, ''];
  printers = [{ name: 'TM-T20', displayName: 'Epson TM-T20', description: '', isDefault: true }];

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  reload(): void {
    this.reloads += 1;
  }
  forcefullyCrashRenderer(): void {
    this.crashes += 1;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.mainFrame = new MockFrame(url);
  }
  async executeJavaScript(_code: string): Promise<unknown> {
    return this.script();
  }
  print(options: unknown, callback: (success: boolean, reason: string) => void): void {
    this.printed.push({ options });
    queueMicrotask(() => callback(...this.printOutcome));
  }
  async getPrintersAsync(): Promise<typeof this.printers> {
    return this.printers;
  }
  /** The page's top frame, as an IPC event names it. */
  topFrame(): MockFrame {
    return this.mainFrame;
  }
}

export class MockBrowserWindow extends EventEmitter {
  static created: MockBrowserWindow[] = [];
  readonly webContents = new MockWebContents();
  shown = false;
  destroyed = false;
  minimized = false;
  focused = 0;
  bounds: unknown = null;

  constructor(readonly options: Record<string, unknown>) {
    super();
    MockBrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  show(): void {
    this.shown = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  focus(): void {
    this.focused += 1;
  }
  setBounds(bounds: unknown): void {
    this.bounds = bounds;
  }
}

export class MockIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, handler: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** ipcRenderer.invoke from `frame` of `contents`. */
  async invoke(channel: string, contents: MockWebContents, frame: MockFrame | null, payload?: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ sender: contents, senderFrame: frame }, payload);
  }
  /** ipcRenderer.send from `frame` of `contents`. */
  post(channel: string, contents: MockWebContents, frame: MockFrame | null, ...args: unknown[]): void {
    this.emit(channel, { sender: contents, senderFrame: frame }, ...args);
  }
}

export class MockSession {
  permissionRequest: Listener | null = null;
  permissionCheck: Listener | null = null;
  devicePermission: Listener | null = null;
  displayMedia: Listener | null = null;
  beforeRequest: Listener | null = null;
  readonly webRequest = {
    onBeforeRequest: (listener: Listener) => {
      this.beforeRequest = listener;
    },
  };
  setPermissionRequestHandler(handler: Listener): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: Listener): void {
    this.permissionCheck = handler;
  }
  setDevicePermissionHandler(handler: Listener): void {
    this.devicePermission = handler;
  }
  setDisplayMediaRequestHandler(handler: Listener): void {
    this.displayMedia = handler;
  }
  /** issue 18: the session's events (will-download), by name. */
  readonly listeners = new Map<string, Listener>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, listener);
    return this;
  }
}

export interface MockDisplay {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
}

/** The whole mocked module, with the calls it saw in order (`calls`). */
export function createElectronMock(options: { packaged?: boolean; lock?: boolean; displays?: MockDisplay[] } = {}) {
  MockBrowserWindow.created = [];
  const calls: string[] = [];
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const appEvents = new EventEmitter();
  const app = Object.assign(appEvents, {
    isPackaged: options.packaged ?? false,
    exitCode: null as number | null,
    relaunched: 0,
    quits: 0,
    paths: {} as Record<string, string>,
    version: '1.0.0',
    getVersion: () => app.version,
    releaseSingleInstanceLock: () => calls.push('app.releaseSingleInstanceLock'),
    requestSingleInstanceLock: () => {
      calls.push('app.requestSingleInstanceLock');
      return options.lock ?? true;
    },
    quit: () => {
      calls.push('app.quit');
      app.quits += 1;
    },
    exit: (code = 0) => {
      calls.push(`app.exit(${code})`);
      app.exitCode = code;
    },
    relaunch: () => {
      calls.push('app.relaunch');
      app.relaunched += 1;
    },
    whenReady: () => {
      calls.push('app.whenReady');
      return ready;
    },
    setPath: (name: string, path: string) => {
      app.paths[name] = path;
    },
    setAppLogsPath: (path: string) => {
      app.paths.logs = path;
    },
    enableSandbox: () => calls.push('app.enableSandbox'),
  });
  const displays = options.displays ?? [{ id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 } }];
  const screenEvents = new EventEmitter();
  const screen = Object.assign(screenEvents, {
    displays,
    getAllDisplays: () => screen.displays,
    getPrimaryDisplay: () => screen.displays[0],
  });
  const protocol = {
    privileged: [] as unknown[],
    handlers: new Map<string, (request: { url: string; method: string }) => Promise<Response>>(),
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      calls.push('protocol.registerSchemesAsPrivileged');
      protocol.privileged.push(...schemes);
    },
    handle: (scheme: string, handler: (request: { url: string; method: string }) => Promise<Response>) => {
      protocol.handlers.set(scheme, handler);
    },
  };
  const menu = { applicationMenu: undefined as unknown };
  const shell = { opened: [] as string[], openExternal: async (url: string) => void shell.opened.push(url) };
  const dialog = { errors: [] as string[], showErrorBox: (_title: string, content: string) => void dialog.errors.push(content) };
  return {
    calls,
    ready: () => resolveReady(),
    app,
    BrowserWindow: MockBrowserWindow,
    ipcMain: new MockIpcMain(),
    protocol,
    session: { defaultSession: new MockSession() },
    screen,
    Menu: {
      setApplicationMenu: (value: unknown) => {
        menu.applicationMenu = value;
      },
    },
    menu,
    shell,
    dialog,
  };
}

export type ElectronMock = ReturnType<typeof createElectronMock>;

/** The renderer side of the mocked module, for the preload: contextBridge and ipcRenderer. */
export function createRendererElectronMock() {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, Listener[]>();
  const invoked: Array<{ channel: string; args: unknown[] }> = [];
  const sent: Array<{ channel: string; args: unknown[] }> = [];
  let answer: (channel: string, args: unknown[]) => Promise<unknown> = async () => ({ ok: true, value: null });
  return {
    exposed,
    invoked,
    sent,
    answerWith(next: (channel: string, args: unknown[]) => Promise<unknown>) {
      answer = next;
    },
    /** main → renderer: what webContents.send would deliver. */
    deliver(channel: string, ...args: unknown[]) {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'the ipcRenderer object', ports: [] }, ...args);
    },
    contextBridge: {
      exposeInMainWorld(name: string, value: unknown) {
        if (exposed.has(name)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${name}`);
        exposed.set(name, value);
      },
    },
    ipcRenderer: {
      invoke(channel: string, ...args: unknown[]) {
        invoked.push({ channel, args });
        return answer(channel, args);
      },
      send(channel: string, ...args: unknown[]) {
        sent.push({ channel, args });
      },
      on(channel: string, listener: Listener) {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
        return this;
      },
    },
  };
}
