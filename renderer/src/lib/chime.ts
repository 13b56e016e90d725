/**
 * issue 15 "Outcomes full screen": a short two-note chime when a payment lands, made with a WebAudio oscillator (no
 * audio file to ship or load). Never throws: a machine without audio, or a browser that has not allowed sound yet
 * (autoplay policy: the cashier's tap on Charge normally allows it), simply stays silent; the screen says Paid anyway.
 */
let context: AudioContext | null = null;

export function playPaymentChime(): void {
  try {
    const AudioCtor = globalThis.AudioContext;
    if (!AudioCtor) return;
    context ??= new AudioCtor();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime + 0.01;
    // Two rising notes (E6 then A6), 120 ms each, with a soft attack and release so they do not click.
    [1318.5, 1760].forEach((frequency, index) => {
      const ctx = context as AudioContext;
      const at = start + index * 0.13;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(0.25, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.12);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.13);
    });
  } catch {
    // No sound is not an error (see above).
  }
}
