// The tsume puzzle page (#/puzzles, issue 20): a puzzle near the player's rating (GET
// /api/puzzles/next), the player makes the attacker's moves and the page plays the defender's
// replies the server gives (POST /api/puzzles/ID/attempt); a wrong move shows the defender's
// refutation on the board with the reason; hints give the piece, then the move; the rating and
// its change after each rated attempt. Guests solve unrated.
import { ApiError, PositionInfo, get, post } from './api';
import { clear, h, toast } from './dom';
import { t } from './i18n';
import { View } from './app';
import { Board, colorOf, splitSfen } from './board';
import type { Key } from 'shogiground/types';

interface Puzzle { id: string; sfen: string; length: number; rating: number; source: string; ply: number }
interface PlayerRating { rating: number; deviation: number; plays: number; rated: boolean }
interface RatingChange { before: number; after: number; change: number }
interface Attempt {
  result: 'correct' | 'continue' | 'wrong';
  reply?: string;
  reason?: string;
  refutation?: string;
  rated: boolean;
  rating: RatingChange;
  solution?: string[];
}
interface Hint { from?: string; drop?: string; move?: string; rated?: boolean; rating?: RatingChange }

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

/// What went wrong with a move, in the page's language.
function wrongText(a: Attempt, left: number): string {
  if (a.reason === 'illegal') return t('puzzleIllegal');
  if (a.reason === 'not a check') return t('puzzleNotCheck');
  if (a.refutation) return fill(t('puzzleNoMate'), { move: a.refutation, n: Math.max(left, 0) });
  return t('puzzleNoMateFound');
}

export function puzzlesView(): View {
  const status = h('p.puzzle-status', { role: 'status', 'aria-live': 'polite' });
  const meta = h('p.meta.puzzle-meta');
  const ratingEl = h('p.puzzle-rating');
  const solutionEl = h('p.puzzle-solution');
  const boardEl = h('div');
  let puzzle: Puzzle | undefined;
  let moves: string[] = [];
  let over = false;
  let hintLevel = 0;
  const board = new Board(boardEl, (usi) => void play(usi));
  const attacker = () => splitSfen(puzzle!.sfen).turn;

  async function show(last?: string, movable = true): Promise<void> {
    const p = await post<PositionInfo>('position', { sfen: puzzle!.sfen, moves });
    board.show({ sfen: p.sfen, legal: p.legal, last, check: p.check, movable: movable && !over ? attacker() : 'none' });
    el.dataset.ply = String(moves.length); // (the position shown: its plies and last move)
    el.dataset.last = last ?? '';
  }

  function showRating(r: RatingChange | undefined, rated: boolean): void {
    if (!rated || !r) {
      if (r && r.change === 0 && !rated) ratingEl.textContent = `${t('puzzleRating')}: ${r.after} (${t('puzzleNotRated')})`;
      return;
    }
    const sign = r.change > 0 ? '+' : '';
    clear(ratingEl, `${t('puzzleRating')}: ${r.after} `, h('span.change', { class: r.change >= 0 ? 'up' : 'down' }, `(${sign}${r.change})`));
  }

  async function play(usi: string): Promise<void> {
    if (!puzzle || over) return;
    moves.push(usi);
    board.ground.setAutoShapes([]);
    await show(usi, false);
    let a: Attempt;
    try {
      a = await post<Attempt>(`puzzles/${puzzle.id}/attempt`, { moves });
    } catch (e) {
      moves.pop();
      toast(e instanceof ApiError ? e.message : String(e), 'error');
      await show(moves[moves.length - 1]);
      return;
    }
    hintLevel = 0;
    if (a.result === 'continue') {
      moves.push(a.reply!);
      await show(a.reply);
      status.textContent = t('puzzleGood');
      status.className = 'puzzle-status good';
      return;
    }
    over = true;
    const left = puzzle.length - moves.length - 1;
    // The rating and the solution first, then the status that says it is over (a reader of the
    // status finds them in place), then the board.
    if (a.solution) solutionEl.textContent = `${t('puzzleSolution')}: ${a.solution.join(' ')}`;
    showRating(a.rating, a.rated);
    if (a.result === 'correct') {
      status.textContent = t('puzzleSolved');
      status.className = 'puzzle-status solved';
    } else {
      status.textContent = `${t('puzzleWrong')}: ${wrongText(a, left)}`;
      status.className = 'puzzle-status wrong';
      if (a.refutation) moves.push(a.refutation); // the defence, on the board
    }
    await show(a.refutation ?? moves[moves.length - 1], false);
  }

  async function hint(): Promise<void> {
    if (!puzzle || over || moves.length % 2) return;
    hintLevel = Math.min(hintLevel + 1, 2);
    try {
      const r = await get<Hint>(`puzzles/${puzzle.id}/hint?moves=${encodeURIComponent(moves.join(','))}&level=${hintLevel}`);
      if (r.move) {
        board.setArrows([[r.move]]);
        status.textContent = fill(t('puzzleHintMove'), { move: r.move });
        showRating(r.rating, !!r.rated);
      } else if (r.from) {
        board.ground.setAutoShapes([{ orig: r.from as Key, dest: r.from as Key, brush: 'green' }]);
        status.textContent = fill(t('puzzleHintPiece'), { square: r.from });
      } else status.textContent = fill(t('puzzleHintDrop'), { piece: r.drop ?? '' });
      status.className = 'puzzle-status hint';
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), 'error');
    }
  }

  async function start(p: Puzzle, player?: PlayerRating): Promise<void> {
    puzzle = p;
    moves = [];
    over = false;
    hintLevel = 0;
    board.setOrientation(colorOf(attacker()));
    meta.textContent = `${fill(t('puzzleMateIn'), { n: p.length })} · ${t('puzzleRatingOf')} ${p.rating} · ${p.source} (${p.ply + 1})`;
    status.textContent = t('puzzleFind');
    status.className = 'puzzle-status';
    solutionEl.textContent = '';
    if (player) ratingEl.textContent = `${t('puzzleRating')}: ${player.rating}${player.rated ? '' : ` (${t('puzzleNotRated')})`}`;
    el.dataset.puzzle = p.id;
    await show();
  }

  async function next(): Promise<void> {
    try {
      const r = await get<{ puzzle: Puzzle; player: PlayerRating }>('puzzles/next');
      await start(r.puzzle, r.player);
    } catch (e) {
      puzzle = undefined;
      status.textContent = e instanceof ApiError ? e.message : String(e);
    }
  }

  const el = h('div.puzzles',
    h('h1', t('puzzles')),
    h('div.puzzle-layout', boardEl,
      h('div.puzzle-side', meta, status, ratingEl, solutionEl,
        h('div.buttons',
          h('button', { name: 'hint', onclick: () => void hint() }, t('puzzleHint')),
          h('button', { name: 'retry', onclick: () => puzzle && void start(puzzle) }, t('puzzleRetry')),
          h('button', { name: 'next-puzzle', onclick: () => void next() }, t('puzzleNext')))))) as HTMLElement;
  void next();
  return { el };
}
