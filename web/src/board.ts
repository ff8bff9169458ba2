// The board: shogiground (lishogi's board component) fed with the legal moves the server
// computes, so only legal moves can be made; promotion choices come from the same list.
import { Shogiground } from 'shogiground';
import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';
import type { Key, Piece, MoveDests, DropDests, Color } from 'shogiground/types';
import type { DrawShape } from 'shogiground/draw';
import { KeyboardLayer } from './keyboard';
import { listenForGameEnds, positionShown } from './announce';

export const ROLE_OF: Record<string, string> = {
  P: 'pawn', L: 'lance', N: 'knight', S: 'silver', G: 'gold', B: 'bishop', R: 'rook', K: 'king',
};
export const LETTER_OF: Record<string, string> = Object.fromEntries(Object.entries(ROLE_OF).map(([k, v]) => [v, k]));
const PROMOTE: Record<string, string> = {
  pawn: 'tokin', lance: 'promotedlance', knight: 'promotedknight', silver: 'promotedsilver', bishop: 'horse', rook: 'dragon',
};
const UNPROMOTE: Record<string, string> = Object.fromEntries(Object.entries(PROMOTE).map(([k, v]) => [v, k]));
export const PROMOTABLE = PROMOTE;
export const UNPROMOTED = UNPROMOTE;

export type Side = 'black' | 'white';
export const colorOf = (s: Side): Color => (s === 'black' ? 'sente' : 'gote');

export interface SfenParts { board: string; turn: Side; hands: string; ply: number }
export function splitSfen(sfen: string): SfenParts {
  const [board, turn, hands, ply] = sfen.trim().split(/\s+/);
  return { board, turn: turn === 'w' ? 'white' : 'black', hands: hands && hands !== '-' ? hands : '', ply: Number(ply) || 1 };
}

/// The squares of a USI move (a drop has no origin).
export function usiSquares(usi: string): { orig?: Key; dest: Key; drop?: string } {
  if (usi[1] === '*') return { dest: usi.slice(2, 4) as Key, drop: ROLE_OF[usi[0]] };
  return { orig: usi.slice(0, 2) as Key, dest: usi.slice(2, 4) as Key };
}

export interface PositionView {
  sfen: string;
  legal: string[];
  last?: string;
  check?: boolean;
  /// Who may move pieces: one side, both (analysis) or nobody.
  movable: Side | 'both' | 'none';
}

export class Board {
  readonly ground: Api;
  private legal = new Set<string>();
  private turn: Side = 'black';
  private shownSfen?: string;
  /// The keyboard's cursor (keyboard.ts).
  readonly keys: KeyboardLayer;

  constructor(
    readonly el: HTMLElement,
    private onMove: (usi: string) => void,
    extra: Config = {},
  ) {
    el.classList.add('board-box');
    const wrap = document.createElement('div');
    el.appendChild(wrap);
    this.ground = Shogiground(
      {
        orientation: 'sente',
        scaleDownPieces: false,
        coordinates: { enabled: localStorage.getItem('hisha.coords') !== 'off', files: 'numeric', ranks: 'japanese' },
        hands: { inlined: true },
        highlight: { lastDests: true, check: true },
        animation: { enabled: true, duration: 180 },
        draggable: { enabled: true, showGhost: true },
        drawable: { enabled: true, visible: true },
        promotion: {
          promotesTo: (r) => PROMOTE[r],
          unpromotesTo: (r) => UNPROMOTE[r],
          movePromotionDialog: (o, d) => this.legal.has(o + d + '+') && this.legal.has(o + d),
          forceMovePromotion: (o, d) => this.legal.has(o + d + '+') && !this.legal.has(o + d),
        },
        movable: {
          showDests: true,
          events: { after: (o, d, prom) => this.onMove(o + d + (prom ? '+' : '')) },
        },
        droppable: {
          showDests: true,
          events: { after: (piece, key) => this.onMove(LETTER_OF[piece.role] + '*' + key) },
        },
        ...extra,
      },
      { board: wrap },
    );
    this.keys = new KeyboardLayer(this);
    listenForGameEnds();
    this.label();
  }

  legalMoves(): ReadonlySet<string> {
    return this.legal;
  }

  show(v: PositionView): void {
    const p = splitSfen(v.sfen);
    this.turn = p.turn;
    this.legal = new Set(v.legal);
    const moveDests: MoveDests = new Map();
    const dropDests: DropDests = new Map();
    const color = colorOf(p.turn);
    for (const usi of v.legal) {
      const s = usiSquares(usi);
      if (s.drop) {
        const name = `${color} ${s.drop}` as const;
        const list = dropDests.get(name) || [];
        if (!list.includes(s.dest)) list.push(s.dest);
        dropDests.set(name, list);
      } else {
        const list = moveDests.get(s.orig!) || [];
        if (!list.includes(s.dest)) list.push(s.dest);
        moveDests.set(s.orig!, list);
      }
    }
    const last = v.last ? usiSquares(v.last) : undefined;
    const active = v.movable === 'none' ? undefined : v.movable === 'both' ? color : colorOf(v.movable);
    const canMove = active === color;
    this.ground.set({
      sfen: { board: p.board, hands: p.hands || '-' }, // ('' would leave the hands as they were)
      turnColor: color,
      activeColor: active,
      checks: v.check ? color : false,
      lastDests: last ? (last.orig ? [last.orig, last.dest] : [last.dest]) : [],
      movable: { dests: canMove ? moveDests : new Map() },
      droppable: { dests: canMove ? dropDests : new Map() },
    });
    this.ground.setAutoShapes([]);
    this.label();
    positionShown(this.shownSfen, v.sfen, v.last); // (said in the live region: announce.ts)
    this.shownSfen = v.sfen;
    this.keys.refresh();
  }

  setArrows(lines: string[][]): void {
    const brushes = ['primary', 'alternative0', 'alternative1', 'alternative2'];
    const shapes: DrawShape[] = [];
    lines.forEach((pv, i) => {
      const usi = pv[0];
      if (!usi) return;
      const s = usiSquares(usi);
      const orig: Key | Piece = s.orig ?? { role: s.drop!, color: colorOf(this.turn) };
      shapes.push({ orig, dest: s.dest, brush: brushes[Math.min(i, brushes.length - 1)] });
    });
    this.ground.setAutoShapes(shapes);
  }

  flip(): void {
    this.ground.toggleOrientation();
    this.label();
  }
  orientation(): Color {
    return this.ground.state.orientation;
  }
  setOrientation(c: Color): void {
    if (this.orientation() !== c) this.flip();
  }
  setCoordinates(on: boolean): void {
    localStorage.setItem('hisha.coords', on ? 'on' : 'off');
    this.el.classList.toggle('no-coords', !on);
  }

  /// Screen readers: the board as text (the pieces themselves are drawn by CSS).
  private label(): void {
    const pieces = this.ground.state.pieces;
    const names: string[] = [];
    for (const [key, piece] of pieces) names.push(`${piece.color === 'sente' ? 'Black' : 'White'} ${piece.role} ${key}`);
    this.el.setAttribute('role', 'application'); // (keys go to the board: keyboard.ts)
    this.el.setAttribute('aria-label', `Shogi board, ${this.turn} to move. ${KeyboardLayer.helpText()} ${names.sort().join(', ')}`);
    this.el.classList.toggle('no-coords', localStorage.getItem('hisha.coords') === 'off');
  }
}
