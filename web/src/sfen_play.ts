// The page's own shogi arithmetic, for when neither the server nor the browser's engine can say
// where the pieces stand (offline, before the engine has loaded or where none is shipped): an SFEN
// with USI moves played on it, each move only as far as drawing needs (the piece goes, a capture
// goes to the hand, a drop leaves the hand), with no legal moves and no check: those come from an
// engine. Also the SFEN and USI texts of a record ("sfen ... moves ...", "position startpos ...").
import type { PositionInfo } from './api';

export const START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const HAND_ORDER = 'RBGSNLPrbgsnlp';

interface Parsed { rows: string[][]; turn: 'b' | 'w'; hand: Map<string, number>; ply: number }

/// The board of an SFEN as 9 rows (rank a first) of 9 cells (file 9 first): '' or 'P', '+r' ...
function parse(sfen: string): Parsed {
  const [board, turn, hands = '-', ply = '1'] = sfen.trim().split(/\s+/);
  const rows = (board ?? '').split('/').map((r) => {
    const cells: string[] = [];
    for (let i = 0; i < r.length; i++) {
      const c = r[i];
      if (c >= '1' && c <= '9') for (let k = 0; k < Number(c); k++) cells.push('');
      else if (c === '+' && /[PLNSBRplnsbr]/.test(r[i + 1] ?? '')) cells.push(c + r[++i]);
      else if (/[PLNSGBRKplnsgbrk]/.test(c)) cells.push(c);
      else throw new Error(`not an SFEN board: ${board}`);
    }
    return cells;
  });
  if (rows.length !== 9 || rows.some((r) => r.length !== 9)) throw new Error(`not an SFEN board: ${board}`);
  if (turn !== 'b' && turn !== 'w') throw new Error(`not an SFEN side to move: ${turn}`);
  const hand = new Map<string, number>();
  if (hands !== '-') {
    const re = /(\d*)([RBGSNLPrbgsnlp])/gy;
    let m: RegExpExecArray | null;
    let used = 0;
    while ((m = re.exec(hands))) {
      hand.set(m[2], (hand.get(m[2]) ?? 0) + (m[1] ? Number(m[1]) : 1));
      used = re.lastIndex;
    }
    if (used !== hands.length) throw new Error(`not SFEN hands: ${hands}`);
  }
  return { rows, turn, hand, ply: Number(ply) || 1 };
}

function write(p: Parsed): string {
  const board = p.rows.map((r) => {
    let out = '';
    let empty = 0;
    for (const c of r) {
      if (!c) empty++;
      else {
        out += (empty ? String(empty) : '') + c;
        empty = 0;
      }
    }
    return out + (empty ? String(empty) : '');
  }).join('/');
  const hands = [...HAND_ORDER].filter((c) => p.hand.get(c)).map((c) => (p.hand.get(c)! > 1 ? String(p.hand.get(c)) : '') + c).join('');
  return `${board} ${p.turn} ${hands || '-'} ${p.ply}`;
}

/// [row, column] of a USI square ("7g": file 7, rank g).
function cell(sq: string): [number, number] {
  const file = Number(sq[0]);
  const rank = sq.charCodeAt(1) - 97;
  if (!(file >= 1 && file <= 9) || !(rank >= 0 && rank <= 8)) throw new Error(`not a square: ${sq}`);
  return [rank, 9 - file];
}

/// Plays one USI move on a parsed position (the side to move's piece must be there, or in hand).
function play(p: Parsed, usi: string): void {
  const black = p.turn === 'b';
  const own = (c: string) => c !== '' && (c.replace('+', '') === c.replace('+', '').toUpperCase()) === black;
  const [tr, tc] = cell(usi.slice(2, 4));
  if (usi[1] === '*') {
    const piece = black ? usi[0] : usi[0].toLowerCase();
    if (!/^[RBGSNLP]\*/.test(usi) || !p.hand.get(piece) || p.rows[tr][tc]) throw new Error(`${usi} cannot be played here`);
    p.hand.set(piece, p.hand.get(piece)! - 1);
    p.rows[tr][tc] = piece;
  } else {
    const [fr, fc] = cell(usi.slice(0, 2));
    const moving = p.rows[fr][fc];
    const target = p.rows[tr][tc];
    if (!/^\d[a-i]\d[a-i]\+?$/.test(usi) || !own(moving) || own(target)) throw new Error(`${usi} cannot be played here`);
    if (target) {
      const base = target.replace('+', '');
      const taken = black ? base.toUpperCase() : base.toLowerCase();
      if (taken.toUpperCase() !== 'K') p.hand.set(taken, (p.hand.get(taken) ?? 0) + 1);
    }
    p.rows[fr][fc] = '';
    p.rows[tr][tc] = usi.endsWith('+') && !moving.startsWith('+') ? '+' + moving : moving;
  }
  p.turn = black ? 'w' : 'b';
  p.ply += 1;
}

/// The position after `moves` from `sfen`, as far as the page can tell it alone: the SFEN and the
/// moves (their texts are their USI), no legal moves. Throws on a bad SFEN or a move that cannot be
/// played (no piece of the side to move there, nothing of that kind in hand).
export function localPosition(sfen: string, moves: string[]): PositionInfo {
  const p = parse(sfen === 'startpos' ? START_SFEN : sfen);
  for (const usi of moves) play(p, usi);
  const out = write(p);
  return { sfen: out, turn: p.turn === 'w' ? 'white' : 'black', check: false, legal: [], over: '', moves: moves.map((usi) => ({ usi, western: usi, ja: usi, kif: usi })) };
}

/// A record the page reads alone: "sfen S [moves ...]", "position startpos|sfen S [moves ...]",
/// "startpos [moves ...]" or a bare SFEN [moves ...]; undefined for any other text (KIF, CSA ...).
export function readSfenRecord(text: string): { sfen: string; moves: string[] } | undefined {
  const w = text.trim().split(/\s+/);
  if (w[0] === 'position') w.shift();
  let sfen: string;
  let rest: string[];
  if (w[0] === 'startpos') [sfen, rest] = [START_SFEN, w.slice(1)];
  else {
    if (w[0] === 'sfen') w.shift();
    if (w.length < 2 || !w[0].includes('/')) return undefined;
    const n = w.length >= 4 && /^\d+$/.test(w[3]) ? 4 : 3;
    [sfen, rest] = [w.slice(0, n).join(' '), w.slice(n)];
  }
  if (rest.length && rest[0] !== 'moves') return undefined;
  const moves = rest.slice(1);
  try {
    localPosition(sfen, moves);
  } catch {
    return undefined;
  }
  return { sfen: localPosition(sfen, []).sfen, moves };
}
