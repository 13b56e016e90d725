// `npm start [-- flags]`: the kiosk as a counter PC runs it (issue 6 "npm start"). The Electron shell when Electron's
// binary is installed and can load the native modules; otherwise one line says why, and the web shell
// (launch/web.ts, the same core and renderer in Chromium's app mode) runs instead. Flags are launch/kiosk-config.ts's,
// plus --windowed for the Electron shell.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { findElectronBinary, nativeModulesProblem } from '../build/electron-binary.ts';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const binary = findElectronBinary();
const problem = binary.ok ? nativeModulesProblem(binary.path, root) : binary.reason;

if (!binary.ok || problem) {
  // issue 15 "first five minutes": the line says first what is running, then why Electron is not and how to get it.
  process.stderr.write(`start: running the kiosk in the web shell, not the Electron shell: ${problem}.\n`);
  // --windowed is the Electron shell's; the web shell always opens a window of its own.
  const webArgs = args.filter((arg) => arg !== '--windowed');
  // issue 14 "cold start": the web shell bundled (build/bundle-web.ts, made afresh here as the Electron shell's is) in a
  // plain Node process, not the sources through tsx in this one: spawn → listening 0.7 s instead of 2.0 s.
  const { bundleWeb } = await import('../build/bundle-web.ts');
  runChild(process.execPath, [await bundleWeb(), ...webArgs]);
} else {
  // The bundler (esbuild, a devDependency) is loaded only when the Electron shell is about to run.
  const { bundleElectron } = await import('../build/bundle-electron.ts');
  const { appDir } = await bundleElectron();
  runChild(binary.path, [appDir, ...args]);
}

/** Runs the kiosk in a child process with this one's terminal, and exits with it. */
function runChild(command: string, childArgs: string[]): void {
  const child = spawn(command, childArgs, { stdio: 'inherit', cwd: root });
  // Ctrl+C or a service manager's SIGTERM reaches the kiosk, which closes its database before it exits.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
