// The board from the keyboard: a cursor over the 81 squares and both hands. Arrow keys move it
// (up from the top rank goes to the hand shown above the board, down from the bottom rank to the
// one below; left and right go along a hand's pieces), Enter or Space selects the piece under
// it and then plays it to the square under it (a hand's piece is dropped), Escape cancels. When a
// move may promote or not, the page asks, and Y (or +, Enter) promotes, N (or =) does not. The
// cursor is drawn on the board and said in a polite live region of its own (#kb-status); the
// moves themselves are said by announce.ts. The moves go through shogiground (selectSquare and
// selectPiece), so a key move is exactly a click move.
import type { Api } from 'shogiground/api';
import type { Color, Key, Piece } from 'shogiground/types';
import { currentLang } from './i18n';

export interface KeyboardBoard {
  readonly el: HTMLElement;
  readonly ground: Api;
  /// The legal moves (USI) of the position shown.
  legalMoves(): ReadonlySet<string>;
}

const FILES_JA = '０１２３４５６７８９';
const RANKS_JA = '〇一二三四五六七八九';
const ROLE_JA: Record<string, string> = {
  pawn: '歩', lance: '香', knight: '桂', silver: '銀', gold: '金', bishop: '角', rook: '飛', king: '玉',
  tokin: 'と', promotedlance: '成香', promotedknight: '成桂', promotedsilver: '成銀', horse: '馬', dragon: '龍',
};
const ROLE_EN: Record<string, string> = { promotedlance: 'promoted lance', promotedknight: 'promoted knight', promotedsilver: 'promoted silver' };
const TEXT = {
  empty: ['empty', '空き'], black: ['Black', '先手'], white: ['White', '後手'], hand: ['hand', '持ち駒'],
  none: ['no pieces', 'なし'], selected: ['selected', '選択'], cancelled: ['cancelled', '取り消し'],
  promote: ['Promote? Y: yes, N: no, Escape: cancel', '成りますか？ Y：成る　N：不成　Esc：取り消し'],
  help: ['Board: arrow keys move the cursor over the squares and the hands, Enter or Space selects and moves, Escape cancels.',
    '将棋盤：矢印キーでカーソルを盤と持ち駒の上で動かし、Enter か Space で選んで指します。Esc で取り消し。'],
} satisfies Record<string, readonly [string, string]>;
const tr = (k: keyof typeof TEXT) => TEXT[k][currentLang() === 'ja' ? 1 : 0];

/// A cursor: a square (col, row as drawn: 0..8 from the top left), or a hand (row -1: the hand
/// drawn above the board, 9: below) and an index among the kinds it holds.
interface Cursor { col: number; row: number }

export class KeyboardLayer {
  private cur: Cursor = { col: 4, row: 6 };
  private asking?: { orig: Key; dest: Key };
  private box?: HTMLElement;
  private readonly status: HTMLElement;
  private readonly prompt: HTMLElement;

  constructor(private board: KeyboardBoard) {
    const el = board.el;
    el.tabIndex = 0;
    this.status = document.createElement('div');
    this.status.className = 'kb-status';
    this.status.setAttribute('aria-live', 'polite');
    this.status.id = `kb-status-${Math.random().toString(36).slice(2, 8)}`;
    this.prompt = document.createElement('div');
    this.prompt.className = 'kb-prompt';
    this.prompt.hidden = true;
    this.prompt.setAttribute('role', 'alert');
    el.append(this.status, this.prompt);
    el.addEventListener('keydown', (e) => this.key(e));
    el.addEventListener('focus', () => this.draw(true));
    el.addEventListener('blur', () => this.box?.classList.remove('on'));
  }

  /// The roles held by the hand of a row (-1 or 9), from left to right as drawn (the top hand
  /// is drawn reversed).
  private handRoles(row: number): string[] {
    const s = this.board.ground.state;
    const hand = s.hands.handMap.get(this.handColor(row));
    const roles = s.hands.roles.filter((r) => (hand?.get(r) ?? 0) > 0);
    return row < 0 ? roles.reverse() : roles;
  }
  private handColor(row: number): Color {
    const o = this.board.ground.state.orientation;
    return row < 0 ? (o === 'sente' ? 'gote' : 'sente') : o;
  }
  private keyAt(col: number, row: number): Key {
    const sente = this.board.ground.state.orientation === 'sente';
    const file = sente ? 9 - col : col + 1;
    const rank = 'abcdefghi'[sente ? row : 8 - row];
    return `${file}${rank}` as Key;
  }
  private handPiece(): Piece | undefined {
    const color = this.handColor(this.cur.row);
    const roles = this.handRoles(this.cur.row);
    return roles.length ? { color, role: roles[Math.min(this.cur.col, roles.length - 1)] } : undefined;
  }
  private inHand(): boolean {
    return this.cur.row < 0 || this.cur.row > 8;
  }

  private move(dc: number, dr: number): void {
    let { col, row } = this.cur;
    if (dr) {
      row = Math.max(-1, Math.min(9, row + dr));
      if ((row < 0 || row > 8) && !this.handRoles(row).length) row = this.cur.row; // an empty hand is skipped
      if (this.inHand() && row >= 0 && row <= 8) col = 4;
      else if (row < 0 || row > 8) col = 0;
    } else {
      const max = row < 0 || row > 8 ? this.handRoles(row).length - 1 : 8;
      col = Math.max(0, Math.min(max, col + dc));
    }
    this.cur = { col, row };
  }

  private key(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (this.asking) return this.answer(e);
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[e.key]) {
      this.move(...arrows[e.key]);
      this.draw(true);
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.activate();
    } else if (e.key === 'Escape') {
      this.board.ground.selectSquare(null);
      this.board.ground.selectPiece(null);
      this.say(tr('cancelled'));
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /// Enter: select what is under the cursor, or play the selected piece to it.
  private activate(): void {
    const g = this.board.ground;
    const s = g.state;
    if (this.inHand()) {
      const p = this.handPiece();
      if (!p) return;
      g.selectPiece(p);
      this.say(s.selectedPiece ? `${this.describe()}, ${tr('selected')}` : this.describe());
      return;
    }
    const dest = this.keyAt(this.cur.col, this.cur.row);
    const orig = s.selected;
    if (orig && orig !== dest) {
      const legal = this.board.legalMoves();
      if (legal.has(orig + dest + '+') && legal.has(orig + dest)) {
        this.asking = { orig, dest };
        this.prompt.textContent = tr('promote');
        this.prompt.hidden = false;
        return;
      }
    }
    g.selectSquare(dest);
    if (s.selected === dest) this.say(`${this.describe()}, ${tr('selected')}`);
    this.draw(false);
  }

  private answer(e: KeyboardEvent): void {
    const k = e.key.toLowerCase();
    const yes = k === 'y' || k === '+' || k === 'enter' || k === ' ';
    const no = k === 'n' || k === '=';
    if (!yes && !no && k !== 'escape') return;
    e.preventDefault();
    e.stopPropagation();
    const ask = this.asking!;
    this.asking = undefined;
    this.prompt.hidden = true;
    if (k === 'escape') {
      this.board.ground.selectSquare(null);
      this.say(tr('cancelled'));
    } else this.board.ground.selectSquare(ask.dest, yes);
  }

  /// What is under the cursor, in words.
  private describe(): string {
    const ja = currentLang() === 'ja';
    const side = (c: Color) => tr(c === 'sente' ? 'black' : 'white');
    if (this.inHand()) {
      const color = this.handColor(this.cur.row);
      const p = this.handPiece();
      const n = p ? this.board.ground.state.hands.handMap.get(color)?.get(p.role) ?? 0 : 0;
      const name = p ? (ja ? ROLE_JA[p.role] : p.role) : tr('none');
      return `${side(color)} ${tr('hand')}: ${name}${n > 1 ? ` ×${n}` : ''}`;
    }
    const key = this.keyAt(this.cur.col, this.cur.row);
    const piece = this.board.ground.state.pieces.get(key);
    const where = ja ? FILES_JA[Number(key[0])] + RANKS_JA['abcdefghi'.indexOf(key[1]) + 1] : key;
    const what = piece ? `${side(piece.color)} ${ja ? ROLE_JA[piece.role] : ROLE_EN[piece.role] ?? piece.role}` : tr('empty');
    return `${where} ${what}`;
  }
  private say(text: string): void {
    this.status.textContent = text;
  }

  /// Draws the cursor (a frame over the square or the hand's piece); `tell`: says it too.
  draw(tell: boolean): void {
    if (document.activeElement !== this.board.el) return;
    const el = this.board.el;
    for (const old of el.querySelectorAll('.kb-hand-cursor')) old.classList.remove('kb-hand-cursor');
    const boardEl = el.querySelector('sg-board') as HTMLElement | null;
    if (!boardEl) return;
    if (!this.box || this.box.parentElement !== boardEl) {
      this.box = document.createElement('div');
      this.box.className = 'kb-cursor';
      boardEl.appendChild(this.box);
    }
    this.box.classList.toggle('on', !this.inHand());
    const p = this.inHand() ? this.handPiece() : undefined;
    el.dataset.cursor = this.inHand() ? `hand:${this.handColor(this.cur.row)}:${p?.role ?? ''}` : this.keyAt(this.cur.col, this.cur.row);
    if (this.inHand()) {
      const wrap = el.querySelector(`sg-hand-wrap.hand-${this.cur.row < 0 ? 'top' : 'bottom'}`);
      const pieceEl = p && wrap?.querySelector(`piece.${p.color}.${p.role}`);
      pieceEl?.parentElement?.classList.add('kb-hand-cursor');
    } else {
      this.box.style.left = `${(this.cur.col * 100) / 9}%`;
      this.box.style.top = `${(this.cur.row * 100) / 9}%`;
    }
    if (tell) this.say(this.describe());
  }

  /// After the position changed: the cursor stays where it was (a hand emptied: back to the board).
  refresh(): void {
    if (this.inHand() && !this.handRoles(this.cur.row).length) this.cur = { col: 4, row: this.cur.row < 0 ? 0 : 8 };
    this.asking = undefined;
    this.prompt.hidden = true;
    this.draw(false);
  }

  static helpText(): string {
    return tr('help');
  }
}

