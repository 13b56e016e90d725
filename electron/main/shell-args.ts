export interface ShellArgs {
  /** The kiosk's own flags, for launch/kiosk-config.ts. */
  kioskArgs: string[];
  /** `--windowed`: a framed window instead of kiosk mode, for a technician servicing the counter PC. */
  windowed: boolean;
}

// Switches that belong to Chromium or Node, not to the kiosk: Electron leaves them in process.argv (Playwright adds
// --inspect=0 and --remote-debugging-port=0; a support technician may add --enable-logging or --ozone-platform).
const ENGINE_SWITCH = /^--(inspect|inspect-brk|inspect-port|remote-debugging|no-sandbox|enable-|disable-|ozone-|user-data-dir|lang=|js-flags|v=|vmodule|force-|use-gl|log-|trace-|allow-|no-zygote|in-process-gpu)/;

/**
 * Splits Electron's process.argv into the kiosk's flags and the shell's own. argv[0] is the executable; when not
 * packaged, the first argument that is not a switch is the app's entry script, also dropped. Everything else is the
 * kiosk's, so a mistyped flag still reaches the config parser and gets its clear error.
 */
export function splitShellArgs(argv: readonly string[], packaged: boolean): ShellArgs {
  const rest = argv.slice(1).filter((arg) => !ENGINE_SWITCH.test(arg));
  if (!packaged) {
    const entry = rest.findIndex((arg) => !arg.startsWith('-'));
    if (entry !== -1) rest.splice(entry, 1);
  }
  const windowed = rest.includes('--windowed');
  return { kioskArgs: rest.filter((arg) => arg !== '--windowed'), windowed };
}
