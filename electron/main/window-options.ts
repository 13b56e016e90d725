import type { BrowserWindowConstructorOptions, Rectangle, WebPreferences } from 'electron';

export interface WindowContext {
  /** Absolute path of the built preload (out/preload/preload.cjs). */
  preload: string;
  /** Developer tools: never in a packaged build (issue 6 "devtools off in production builds"). */
  devTools: boolean;
}

/**
 * The renderer's web preferences, the same for every window (issue 6; Electron security checklist 2–4, 6, 8–10):
 * context isolation, the process sandbox, no Node integration anywhere (workers, subframes), web security on, no
 * insecure content, no experimental or Blink features, no <webview>, no spellchecker (it would download dictionaries).
 */
export function secureWebPreferences(context: WindowContext): WebPreferences {
  return {
    preload: context.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    devTools: context.devTools,
  };
}

/**
 * The cashier's window (issue 6): kiosk mode — full screen, no frame, no menu — unless `windowed` (a technician's
 * `--windowed`, for servicing the counter PC). Shown once the first paint is ready, so the counter never sees a blank
 * white window.
 */
export function cashierWindowOptions(context: WindowContext, windowed = false): BrowserWindowConstructorOptions {
  return {
    show: false,
    kiosk: !windowed,
    fullscreen: !windowed,
    frame: windowed,
    autoHideMenuBar: true,
    width: 1280,
    height: 800,
    backgroundColor: '#ffffff',
    title: 'QR Kiosk',
    webPreferences: secureWebPreferences(context),
  };
}

/**
 * The customer display (issue 5 "Customer view", issue 6 "With a second display"): full screen on that display's
 * bounds, never focusable, so a touch on it cannot steal the cashier's keyboard focus.
 */
export function customerWindowOptions(context: WindowContext, bounds: Rectangle): BrowserWindowConstructorOptions {
  return {
    show: false,
    x: bounds.x,
    y: bounds.y,
    width: bounds.width,
    height: bounds.height,
    fullscreen: true,
    frame: false,
    focusable: false,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    title: 'QR Kiosk — customer',
    webPreferences: secureWebPreferences(context),
  };
}

/** The hidden window a receipt is rendered in before it is printed silently (issue 6 "Receipts"). */
export function receiptWindowOptions(context: WindowContext): BrowserWindowConstructorOptions {
  return {
    show: false,
    width: 320,
    height: 1200,
    focusable: false,
    skipTaskbar: true,
    // Hidden windows are throttled by default; the receipt must render fully before it is printed.
    webPreferences: { ...secureWebPreferences(context), devTools: false, backgroundThrottling: false },
  };
}
