// Move and check sounds synthesised with Web Audio (no sound files to load), and spoken moves
// through the Web Speech API in English or Japanese.
import { currentLang } from './i18n';

let ctx: AudioContext | undefined;
export const prefs = {
  get sound(): boolean {
    return localStorage.getItem('hisha.sound') !== 'off';
  },
  set sound(on: boolean) {
    localStorage.setItem('hisha.sound', on ? 'on' : 'off');
  },
  get speech(): boolean {
    return localStorage.getItem('hisha.speech') === 'on';
  },
  set speech(on: boolean) {
    localStorage.setItem('hisha.speech', on ? 'on' : 'off');
  },
};

function tone(freq: number, start: number, length: number, gain: number): void {
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const g = ctx.createGain();
  osc.type = 'triangle';
  osc.frequency.value = freq;
  g.gain.setValueAtTime(gain, ctx.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(g).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length);
}

/// A wooden "click" for a move, a rising pair of tones for check.
export function moveSound(check: boolean): void {
  if (!prefs.sound) return;
  try {
    ctx = ctx || new AudioContext();
    tone(180, 0, 0.08, 0.5);
    tone(90, 0, 0.05, 0.4);
    if (check) {
      tone(660, 0.1, 0.15, 0.2);
      tone(880, 0.25, 0.2, 0.2);
    }
  } catch {
    /* no audio device */
  }
}

const PIECE_WORDS: Record<string, string> = {
  P: 'pawn', L: 'lance', N: 'knight', S: 'silver', G: 'gold', B: 'bishop', R: 'rook', K: 'king',
  '+P': 'tokin', '+L': 'promoted lance', '+N': 'promoted knight', '+S': 'promoted silver', '+B': 'horse', '+R': 'dragon',
};

/// "P-7f" -> "pawn to 7 f", "Bx3c+" -> "bishop takes 3 c, promotes", "S*5e" -> "silver drop 5 e".
export function speakableWestern(w: string): string {
  const m = w.match(/^(\+?[PLNSGBRK])([1-9][a-i])?([-x*'])([1-9])([a-i])([+=]?)$/);
  if (!m) return w;
  const [, piece, , how, file, rank, prom] = m;
  const verb = how === 'x' ? 'takes' : how === '-' ? 'to' : 'drop';
  return `${PIECE_WORDS[piece] || piece} ${verb} ${file} ${rank}${prom === '+' ? ', promotes' : prom === '=' ? ', does not promote' : ''}`;
}

export function speak(western: string, ja: string | undefined, extra = ''): void {
  if (!prefs.speech || !('speechSynthesis' in window)) return;
  const jaMode = currentLang() === 'ja' && ja;
  const u = new SpeechSynthesisUtterance(
    jaMode ? ja!.replace(/[▲△]/g, (c) => (c === '▲' ? '先手 ' : '後手 ')) + (extra ? ' ' + extra : '') : speakableWestern(western) + (extra ? '. ' + extra : ''),
  );
  u.lang = jaMode ? 'ja-JP' : 'en-US';
  speechSynthesis.speak(u);
}

/// Screen-reader announcement.
export function announce(text: string): void {
  const el = document.getElementById('sr-live');
  if (el) el.textContent = text;
}
