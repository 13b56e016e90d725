/** A command-line switch or environment variable an installed kiosk will not start with, and why. */
export interface RefusedSwitch {
  /** As the log names it: `--remote-debugging-port`, `NODE_OPTIONS (--inspect)`. */
  name: string;
  why: string;
}

const DEBUGGER = "a debugger could then read the kiosk's tokens and drive the cashier screen, refunds included";
const INSPECTOR = `starts Node's inspector in the main process: ${DEBUGGER} (the installer's enableNodeCliInspectArguments fuse also ignores it)`;
const LAUNCHER = "starts Chromium's child processes through another program, which then runs inside the kiosk";

/**
 * issue 12: Chromium and Node switches that open the kiosk to a debugger or take its sandboxing away, by name without
 * dashes. A packaged kiosk refuses them; development runs (and Playwright, which adds --inspect=0 and
 * --remote-debugging-port=0) keep them. Not refused, on purpose: --enable-logging, --v, --vmodule (Chromium's log to
 * standard error or a file; the renderer holds no secret, and a technician servicing the PC needs them),
 * --ozone-platform, --disable-gpu and the like (how it draws, not what it may do), --remote-debugging-address and
 * --inspect-publish-uid (they only shape a debugger that one of the refused switches must open).
 */
const REFUSED_SWITCHES: Readonly<Record<string, string>> = {
  'remote-debugging-port': `opens the Chrome DevTools Protocol on a TCP port: ${DEBUGGER}`,
  'remote-debugging-pipe': `opens the Chrome DevTools Protocol to the process that started the kiosk: ${DEBUGGER}`,
  inspect: INSPECTOR,
  'inspect-brk': INSPECTOR,
  'inspect-port': INSPECTOR,
  'inspect-brk-node': INSPECTOR,
  'no-sandbox': "turns off Chromium's renderer sandbox (Electron security checklist 4)",
  'disable-web-security': 'turns off the same-origin policy (Electron security checklist 6)',
  'disable-site-isolation-trials': 'turns off site isolation between pages',
  'single-process': 'runs pages inside the main process, without any sandbox',
  'js-flags': 'hands V8 flags to every process, which can turn off its safety checks (e.g. --allow-natives-syntax)',
  'renderer-cmd-prefix': LAUNCHER,
  'gpu-launcher': LAUNCHER,
  'utility-cmd-prefix': LAUNCHER,
  'browser-subprocess-path': LAUNCHER,
};

/** NODE_OPTIONS entries that attach a debugger or load code before the kiosk's own. */
const NODE_OPTIONS_REFUSED = /(?:^|\s)(--inspect(?:-brk|-port)?|--require|-r|--import|--loader|--experimental-loader)(?=[\s=]|$)/;

/**
 * The first switch in `argv` (after the executable) or the first variable in `env` that an installed kiosk must not
 * run with, or null. Chromium reads a switch after `--` or `-` (and `/` on Windows, where it also ignores letter case),
 * so all those spellings count; every argument is looked at, a value of another flag too (refusing too much is safe).
 * Environment (issue 12): NODE_OPTIONS with an inspector or code-loading option (Electron ignores NODE_OPTIONS in a
 * packaged app and the installer's enableNodeOptionsEnvironmentVariable fuse turns it off: this is the second net for a
 * binary built without fuses), and ELECTRON_RUN_AS_NODE (the runAsNode fuse makes the installed binary ignore it, so
 * finding it set means someone tried to turn the kiosk into a plain Node runtime).
 */
export function findRefusedSwitch(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): RefusedSwitch | null {
  const prefix = platform === 'win32' ? /^(?:--|-|\/)/ : /^--?/;
  for (const arg of argv.slice(1)) {
    const dashes = prefix.exec(arg);
    if (!dashes) continue;
    const name = arg.slice(dashes[0].length).split('=', 1)[0]?.toLowerCase() ?? '';
    const why = Object.hasOwn(REFUSED_SWITCHES, name) ? REFUSED_SWITCHES[name] : undefined;
    if (why) return { name: `--${name}`, why };
  }
  const nodeOptions = NODE_OPTIONS_REFUSED.exec(env.NODE_OPTIONS ?? '');
  if (nodeOptions) return { name: `NODE_OPTIONS (${nodeOptions[1]})`, why: 'attaches a debugger or loads code into the main process before the kiosk' };
  if (env.ELECTRON_RUN_AS_NODE) return { name: 'ELECTRON_RUN_AS_NODE', why: 'asks Electron to run as a plain Node runtime' };
  return null;
}
