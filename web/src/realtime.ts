// Real-time play on the game page (issue 20): moves sent with the plies the page saw (the
// server refuses a move meant for another position with 409, so a move sent again is never
// played twice) and queued while the connection is lost, sent when it is back; premoves (one
// move queued on the opponent's turn, shown on the board, cancelled by Escape, a right click or
// its button, played at once when the turn comes if still legal); the low-time warning.
import { ApiError, Game, get, post } from './api';
import { app } from './app';
import type { Board, Side } from './board';
import { LETTER_OF } from './board';
import { clear, h, toast } from './dom';
import { currentLang } from './i18n';
import { prefs } from './sound';
import type { Key, Piece, Pieces } from 'shogiground/types';

const tr = (en: string, ja: string) => (currentLang() === 'ja' ? ja : en);
const UNREACHABLE = 'the server cannot be reached';

interface Pending { game: number; move: string; ply: number }

/// Sends the page's moves: with the plies seen; a move that cannot reach the server waits (in
/// sessionStorage too, so a reload keeps it) until the socket is back.
export class MoveSender {
  private key: string;
  readonly note = h('p.queued-move', { hidden: true, role: 'status' });
  constructor(private id: number, private reload: () => Promise<void>) {
    this.key = `hisha.pending.${id}`;
    this.showNote();
  }
  pending(): Pending | undefined {
    const s = sessionStorage.getItem(this.key);
    return s ? (JSON.parse(s) as Pending) : undefined;
  }
  private retry?: ReturnType<typeof setInterval>;
  private setPending(p: Pending | undefined): void {
    if (p) sessionStorage.setItem(this.key, JSON.stringify(p));
    else sessionStorage.removeItem(this.key);
    this.showNote();
    // Besides the socket's return: tried again every 2 s (the socket may not have noticed).
    if (p && !this.retry) this.retry = setInterval(() => app.live?.up && void this.flush(), 2000);
    if (!p) this.stop();
  }
  stop(): void {
    clearInterval(this.retry);
    this.retry = undefined;
  }
  private showNote(): void {
    const p = this.pending();
    this.note.hidden = !p;
    clear(this.note, p ? tr(`Move ${p.move} waits for the connection; it is sent when it is back.`, `接続が戻ったら ${p.move} を送ります。`) : '');
  }
  /// Plays `move` in the position of `plies` plies; false when refused.
  async send(move: string, plies: number): Promise<boolean> {
    if (this.pending()) {
      toast(tr('A move is already waiting for the connection.', '送信待ちの指し手があります。'), 'error');
      return false;
    }
    const p = { game: this.id, move, ply: plies };
    if (app.live && !app.live.up) {
      this.setPending(p);
      return true;
    }
    return this.post(p);
  }
  private async post(p: Pending): Promise<boolean> {
    try {
      await post(`games/${p.game}/move`, { move: p.move, ply: p.ply });
      this.setPending(undefined);
      return true;
    } catch (e) {
      const msg = String((e as Error).message);
      if (e instanceof ApiError && msg === UNREACHABLE) {
        this.setPending(p);
        return true;
      }
      this.setPending(undefined);
      if (msg.includes('plies, not')) {
        // The game moved on: was it this move, sent before the connection broke?
        const g = await get<Game>(`games/${p.game}`).catch(() => undefined);
        if (g?.moves?.[p.ply]?.usi === p.move) return true;
      }
      toast(msg, 'error');
      return false;
    }
  }
  /// The connection is back: the waiting move goes (once).
  private flushing = false;
  async flush(): Promise<void> {
    const p = this.pending();
    if (!p || this.flushing) return;
    this.flushing = true;
    try {
      await this.post(p);
    } finally {
      this.flushing = false;
    }
    await this.reload();
  }
}

// --- premoves

const STEPS: Record<string, [number, number][]> = {
  pawn: [[0, -1]], knight: [[1, -2], [-1, -2]], silver: [[0, -1], [1, -1], [-1, -1], [1, 1], [-1, 1]],
  gold: [[0, -1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1]],
  king: [[0, -1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1], [1, 1], [-1, 1]],
};
const SLIDES: Record<string, [number, number][]> = {
  lance: [[0, -1]], bishop: [[1, 1], [1, -1], [-1, 1], [-1, -1]], rook: [[1, 0], [-1, 0], [0, 1], [0, -1]],
};
const MOVES_OF: Record<string, { steps: [number, number][]; slides: [number, number][] }> = {
  pawn: { steps: STEPS.pawn, slides: [] }, lance: { steps: [], slides: SLIDES.lance },
  knight: { steps: STEPS.knight, slides: [] }, silver: { steps: STEPS.silver, slides: [] },
  gold: { steps: STEPS.gold, slides: [] }, king: { steps: STEPS.king, slides: [] },
  bishop: { steps: [], slides: SLIDES.bishop }, rook: { steps: [], slides: SLIDES.rook },
  horse: { steps: STEPS.king, slides: SLIDES.bishop }, dragon: { steps: STEPS.king, slides: SLIDES.rook },
  tokin: { steps: STEPS.gold, slides: [] }, promotedlance: { steps: STEPS.gold, slides: [] },
  promotedknight: { steps: STEPS.gold, slides: [] }, promotedsilver: { steps: STEPS.gold, slides: [] },
};
const RANKS = 'abcdefghi';
const keyOf = (file: number, rank: number) => `${file}${RANKS[rank]}` as Key;

/// Where a piece might go once the opponent has moved: its moves on an empty board (a slider to
/// the edge), not onto a piece of its own side.
export function premoveDests(key: Key, pieces: Pieces): Key[] {
  const piece = pieces.get(key);
  const kind = piece && MOVES_OF[piece.role];
  if (!piece || !kind) return [];
  const file = Number(key[0]), rank = RANKS.indexOf(key[1]);
  const dir = piece.color === 'sente' ? 1 : -1; // sente's forward is rank a; files count right to left
  const out: Key[] = [];
  const add = (f: number, r: number) => {
    if (f < 1 || f > 9 || r < 0 || r > 8) return false;
    const k = keyOf(f, r);
    if (pieces.get(k)?.color !== piece.color) out.push(k);
    return true;
  };
  for (const [df, dr] of kind.steps) add(file - df * dir, rank + dr * dir);
  for (const [df, dr] of kind.slides) for (let i = 1; add(file - df * dir * i, rank + dr * dir * i); ++i);
  return out;
}

/// One premove at a time on `board` for the player of `side`: shown by the board, with a note
/// and a cancel button; `play` is given it when the turn comes.
export class Premoves {
  queued?: string; // a USI move, promotion left to the rules at play time ('+' when asked)
  readonly note = h('p.premove', { hidden: true });
  private enabled = false;
  constructor(private board: Board, private play: (usi: string) => Promise<void>) {
    board.ground.set({
      premovable: { generate: premoveDests, events: { set: (o, d, prom) => this.set(o + d + (prom ? '+' : '')), unset: () => this.clear(false) } },
      predroppable: { generate: (_p: Piece, pieces: Pieces) => [...allKeys()].filter((k) => !pieces.has(k)),
        events: { set: (p, k) => this.set(LETTER_OF[p.role] + '*' + k), unset: () => this.clear(false) } },
    });
    board.el.addEventListener('contextmenu', (e) => {
      if (!this.queued) return;
      e.preventDefault();
      this.cancel();
    });
  }
  /// Premoves are for real-time games the player is in (correspondence has conditional moves).
  enable(on: boolean): void {
    this.enabled = on;
    this.board.ground.set({ premovable: { enabled: on }, predroppable: { enabled: on } });
    if (!on) this.cancel();
  }
  private set(usi: string): void {
    if (!this.enabled) return;
    this.queued = usi;
    this.note.hidden = false;
    clear(this.note, tr('Premove ', '予約手 '), h('b', usi), ' ',
      h('button.small', { name: 'cancel-premove', onclick: () => this.cancel() }, tr('Cancel', '取消')));
  }
  private clear(ground: boolean): void {
    this.queued = undefined;
    this.note.hidden = true;
    if (ground) {
      this.board.ground.cancelPremove();
      this.board.ground.cancelPredrop();
    }
  }
  cancel(): void {
    this.clear(true);
  }
  /// The game as loaded: on the player's turn the premove is played if legal, else dropped with a note.
  async onTurn(game: Game, mine: Side | undefined): Promise<void> {
    if (!this.queued || !mine || game.status !== 'active' || game.to_move !== mine) return;
    const usi = this.queued.replace(/\+$/, '');
    const legal = new Set(game.legal || []);
    const move = legal.has(usi + '+') && (this.queued.endsWith('+') || !legal.has(usi)) ? usi + '+' : legal.has(usi) ? usi : '';
    this.clear(true);
    if (move) await this.play(move);
    else toast(tr(`Premove ${usi} is not legal now: dropped.`, `予約手 ${usi} は指せないので取り消しました。`), 'info');
  }
}

function* allKeys(): Generator<Key> {
  for (let f = 1; f <= 9; ++f) for (let r = 0; r < 9; ++r) yield keyOf(f, r);
}

// --- the low-time warning

/// Once per game, when the player's clock in a real-time game falls below 10 s (or 10% of the
/// main time when that is less): a sound, and the clock marked.
export class LowTime {
  private warned = false;
  check(game: Game, receivedAt: number, mine: Side | undefined, clock: Element | null): void {
    if (!mine || game.status !== 'active' || game.time_control.startsWith('corr') || game.clock.days_per_move) return;
    const c = game.clock;
    const base = mine === 'black' ? c.black_ms : c.white_ms;
    const toMove = game.to_move === mine && !!c.turn_started;
    const elapsed = toMove ? c.now - c.turn_started + (Date.now() - receivedAt) : 0;
    const left = base - elapsed > 0 ? base - elapsed : toMove ? c.allowed_ms - elapsed : base;
    const main = Number(/^(\d+)/.exec(game.time_control)?.[1] ?? 0) * 1000;
    const limit = main > 0 ? Math.min(10000, main / 10) : 10000;
    const low = toMove && left < limit;
    clock?.classList.toggle('low-time', low);
    if (!low || this.warned) return;
    this.warned = true;
    document.body.dataset.lowTime = '1';
    lowTimeSound();
  }
}

function lowTimeSound(): void {
  if (!prefs.sound) return;
  try {
    const ctx = new AudioContext();
    for (const [start, freq] of [[0, 988], [0.18, 988], [0.36, 740]] as const) {
      const osc = ctx.createOscillator();
      const g = ctx.createGain();
      osc.frequency.value = freq;
      g.gain.setValueAtTime(0.25, ctx.currentTime + start);
      g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + 0.15);
      osc.connect(g).connect(ctx.destination);
      osc.start(ctx.currentTime + start);
      osc.stop(ctx.currentTime + start + 0.15);
    }
  } catch {
    /* no audio device */
  }
}
