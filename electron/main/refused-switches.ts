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
  // issue 27 item 6: the rest of Chromium's sandbox switches (Chromium docs/linux/sandboxing.md, docs/design/sandbox.md)
  // and what takes TLS's checks away (a man in the middle then reads the token and forges the platform's answers).
  'disable-gpu-sandbox': "turns off the GPU process's sandbox",
  'disable-setuid-sandbox': "turns off Chromium's setuid sandbox on Linux",
  'disable-namespace-sandbox': "turns off Chromium's namespace sandbox on Linux",
  'disable-seccomp-filter-sandbox': "turns off Chromium's seccomp-bpf system-call filter on Linux",
  'no-zygote': 'starts renderers without the zygote that sandboxes them on Linux',
  'no-zygote-sandbox': "turns off the zygote's sandbox on Linux",
  'ignore-certificate-errors': 'accepts any TLS certificate, so a man in the middle can pose as the platform or the relay',
  'ignore-certificate-errors-spki-list': 'accepts TLS certificates of the keys it lists, so a man in the middle can pose as the platform or the relay',
  'allow-running-insecure-content': 'lets an https page run scripts loaded over plain http',
};

/**
 * issue 27 item 6: environment variables that take TLS's checks away in the main process (Node's own TLS: the platform,
 * the relay, the update feed), with why. NODE_TLS_REJECT_UNAUTHORIZED=0 turns certificate checks off; NODE_EXTRA_CA_CERTS
 * adds certificate authorities the kiosk then trusts for the platform too; SSLKEYLOGFILE writes every TLS session's
 * keys to a file, from which a capture of the traffic (tokens included) can be read.
 */
const REFUSED_VARIABLES: ReadonlyArray<{ name: string; refused: (value: string) => boolean; why: string }> = [
  { name: 'NODE_TLS_REJECT_UNAUTHORIZED', refused: (value) => value === '0', why: "turns off Node's TLS certificate checks, so a man in the middle can pose as the platform, the relay or the update feed" },
  { name: 'NODE_EXTRA_CA_CERTS', refused: (value) => value !== '', why: 'adds certificate authorities the kiosk would trust for the platform, the relay and the update feed' },
  { name: 'SSLKEYLOGFILE', refused: (value) => value !== '', why: "writes every TLS session's keys to a file, from which captured traffic (tokens included) can be read" },
];

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
  for (const variable of REFUSED_VARIABLES) {
    const value = env[variable.name];
    if (value !== undefined && variable.refused(value)) return { name: variable.name, why: variable.why };
  }
  return null;
}
