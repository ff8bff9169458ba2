// A game: the board with the players' clocks, the move list, and the controls (resign, undo,
// flip, coordinates, notation, sound, speech, keyboard input, chat, the record when it ends).
import { ApiError, Game, PositionInfo, get, myName, post } from './api';
import { Board, Side, colorOf } from './board';
import { clear, fmtClock, h, toast } from './dom';
import { currentLang, t } from './i18n';
import { app, View } from './app';
import { announce, moveSound, prefs, speak } from './sound';
import { chatLine, isMuted, mutedList, scoreGraph, shareCard, spectatorsBadge, spentText } from './game_extras';
import { LowTime, MoveSender, Premoves } from './realtime';
import { ConditionalCard } from './conditional';
import { PauseCard } from './vacation';

export const isUsi = (s: string) => /^([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$/.test(s);

/// What a record download holds (the encodings Japanese desktop programs expect of each extension).
export function downloadTitle(format: string): string {
  if (format === 'kif' || format === 'ki2') return t('shiftJisFile');
  if (format === 'kifu' || format === 'ki2u') return t('utf8File');
  return '';
}

export function resultText(g: Game): string {
  if (g.status !== 'finished' && g.status !== 'aborted') return '';
  const who = g.winner === 'black' ? t('blackWins') : g.winner === 'white' ? t('whiteWins') : g.winner === 'draw' ? t('draw') : t('ended');
  return `${who} ${g.reason ? `(${g.reason.replace(/_/g, ' ')})` : ''}`;
}

export function notationPref(): 'western' | 'ja' {
  return (localStorage.getItem('hisha.notation') as 'western' | 'ja') || (currentLang() === 'ja' ? 'ja' : 'western');
}

export function pieceStylePref(): string {
  return localStorage.getItem('hisha.pieces') || 'kanji';
}

/// The switches every board page shares (flip, coordinates, piece style, notation, sound, speech).
export function boardSettings(board: Board, onNotation: () => void): HTMLElement {
  const check = (label: string, name: string, on: boolean, set: (v: boolean) => void) => {
    const box = h('input', { type: 'checkbox', name, checked: on, onchange: () => set(box.checked) });
    return h('label.switch', box, ' ', label);
  };
  const style = h('select', { name: 'piece_style', 'aria-label': t('pieces') },
    h('option', { value: 'kanji', selected: pieceStylePref() === 'kanji' }, t('kanji')),
    h('option', { value: 'western', selected: pieceStylePref() === 'western' }, t('western')));
  style.onchange = () => {
    localStorage.setItem('hisha.pieces', style.value);
    document.body.dataset.pieces = style.value;
  };
  const nota = h('select', { name: 'notation', 'aria-label': t('notation') },
    h('option', { value: 'western', selected: notationPref() === 'western' }, 'P-7f'),
    h('option', { value: 'ja', selected: notationPref() === 'ja' }, '▲７六歩'));
  nota.onchange = () => {
    localStorage.setItem('hisha.notation', nota.value);
    onNotation();
  };
  return h('div.settings',
    h('button', { name: 'flip', onclick: () => board.flip(), title: t('flip') }, '⇅ ', t('flipShort')),
    check(t('coords'), 'coords', localStorage.getItem('hisha.coords') !== 'off', (v) => board.setCoordinates(v)),
    h('label', t('pieces'), ' ', style),
    h('label', t('notation'), ' ', nota),
    check(t('sound'), 'sound', prefs.sound, (v) => (prefs.sound = v)),
    check(t('speech'), 'speech', prefs.speech, (v) => (prefs.speech = v)));
}

/// The time shown for a side: its main time, then (to move, main time gone) what is left of
/// the move's allowance (byoyomi); a correspondence game shows the days and hours left to move.
/// `receivedAt`: when the page got `game` (its clock's `now`).
function clockText(game: Game, receivedAt: number, side: Side): string {
  const c = game.clock;
  const base = side === 'black' ? c.black_ms : c.white_ms;
  const toMove = game.status === 'active' && game.to_move === side && !!c.turn_started;
  const elapsed = toMove ? c.now - c.turn_started + (c.stopped ? 0 : Date.now() - receivedAt) : 0;
  const corr = game.time_control.startsWith('corr') || c.days_per_move;
  if (corr) {
    if (!toMove) return `${c.days_per_move ?? ''}${currentLang() === 'ja' ? '日' : 'd'}`;
    const left = Math.max(0, c.allowed_ms - elapsed);
    const d = Math.floor(left / 86400000), hh = Math.floor((left % 86400000) / 3600000), mm = Math.floor((left % 3600000) / 60000);
    return d ? `${d}d ${hh}h` : `${hh}h ${String(mm).padStart(2, '0')}m`;
  }
  if (!toMove || base - elapsed > 0) return fmtClock(base - elapsed);
  return fmtClock(c.allowed_ms - elapsed);
}

/// A player's bar: mark, name, clock; highlighted on the player's turn.
function playerBar(el: HTMLElement, game: Game, receivedAt: number, side: Side): void {
  const name = side === 'black' ? game.black : game.white;
  el.classList.toggle('turn', game.status === 'active' && game.to_move === side);
  clear(el,
    h('span.mark', side === 'black' ? '☗' : '☖'),
    h('a.name', { href: `#/player/${encodeURIComponent(name)}` }, name),
    h('span.clock', { 'data-side': side, 'aria-label': t('remaining') }, clockText(game, receivedAt, side)));
}

/// The record of a game that is over, in `record`: the downloads, the KIF text, a link to analyse it.
async function showRecord(record: HTMLElement, id: number, game: Game | undefined): Promise<void> {
  if (!game || game.status === 'active') {
    clear(record);
    return;
  }
  try {
    const kif = await get<string>(`games/${id}/record?format=kifu`); // UTF-8 for the page
    clear(record,
      h('h3', t('record')),
      h('div.row', ['kif', 'kifu', 'ki2', 'csa', 'psn', 'sfen'].map((f) => h('a.button.small', { href: `/api/games/${id}/record?format=${f}`, download: `hisha-${id}.${f}`, title: downloadTitle(f) }, f.toUpperCase()))),
      h('pre.kif', { 'aria-label': t('record') }, kif),
      h('a.button', { href: `#/analysis/game-${id}` }, t('analysis')));
  } catch {
    /* the record stays hidden */
  }
}

/// Sound, speech and the screen reader for the moves of `g` from the `from`-th on: the number announced.
function announceMoves(g: Game, from: number): number {
  const n = g.moves?.length ?? 0;
  for (; from < n; ++from) {
    const m = g.moves![from];
    const check = from === n - 1 && !!g.check;
    moveSound(check);
    speak(m.western, m.ja, check ? (currentLang() === 'ja' ? '王手' : 'check') : '');
    announce(`${m.by} ${m.western}${check ? ' check' : ''}`);
  }
  return from;
}

/// The chat line of a game: what I say goes to the players and watchers (and onto `chat`); a
/// watcher (`watching()`) kibitzes.
function sayInput(id: number, me: string, chat: HTMLElement, watching = () => false): HTMLInputElement {
  const input = h('input', { name: 'say', 'aria-label': t('say'), placeholder: t('say') });
  input.onkeydown = async (e) => {
    if (e.key !== 'Enter' || !input.value.trim()) return;
    try {
      await post(`games/${id}/${watching() ? 'kibitz' : 'say'}`, { text: input.value, leave: true });
      chat.append(h('li.mine', h('b', me + ': '), input.value));
      input.value = '';
    } catch (err) {
      toast(String((err as Error).message), 'error');
    }
  };
  return input;
}

/// Resign, undo, and a link to the analysis board; `load` shows the game again.
function gameControls(id: number, load: () => Promise<void>): HTMLElement {
  const act = (f: () => Promise<unknown>) => async () => {
    try {
      await f();
      load();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  };
  return h('div.controls',
    h('button', { name: 'resign', onclick: async () => { if (confirm(t('resign') + '?')) await act(() => post(`games/${id}/resign`))(); } }, t('resign')),
    h('button', { name: 'undo', onclick: act(() => post(`games/${id}/undo`, {})) }, '↶ ', t('undo')),
    h('a.button', { href: `#/analysis/game-${id}` }, t('analysis')));
}

/// The moves in `list`, the one after `shown` plies marked; a click on a move goes to the
/// position after it.
function renderMoveList(list: HTMLElement, moves: NonNullable<Game['moves']>, shown: number, go: (ply: number) => void): void {
  const useJa = notationPref() === 'ja';
  clear(list, moves.map((m, i) =>
    h('li', { class: i === shown - 1 ? 'current' : undefined, onclick: () => go(i + 1), 'data-ply': m.ply },
      useJa && m.ja ? m.ja : `${m.by === 'black' ? '☗' : '☖'}${m.western}`,
      h('span.move-time', { 'data-ms': m.spent_ms }, ` ${spentText(m.spent_ms)}`),
      m.eval ? h('span.move-eval', { title: m.eval.pv.join(' ') }, ` ${floodgateScore(m.eval.score)}`)
        : m.comment ? h('span.has-comment', { title: m.comment }, ' 💬') : null)));
  list.lastElementChild?.scrollIntoView({ block: 'nearest' });
}

/// A Floodgate score (from Black's side; a mate as +-(100000 - plies)) as the page writes it.
function floodgateScore(score: number): string {
  if (Math.abs(score) >= 90000) return `${score > 0 ? '☗' : '☖'} ${t('mates')}`;
  return score > 0 ? `+${score}` : String(score);
}

/// The last evaluation each side's engine sent with its moves (CSA's '* comments), up to the
/// `shown`-th ply: its score and its line, as the player's engine saw the position.
function renderEvals(card: HTMLElement, body: HTMLElement, game: Game, shown: number): void {
  const moves = (game.moves ?? []).slice(0, shown);
  const rows = (['black', 'white'] as const).flatMap((side) => {
    const m = [...moves].reverse().find((x) => x.by === side && x.eval);
    if (!m?.eval) return [];
    return [h('p.engine-eval', { 'data-side': side, 'data-ply': m.ply },
      h('b', `${side === 'black' ? '☗' : '☖'} ${side === 'black' ? game.black : game.white}`), ' ',
      h('span.score', { 'data-score': m.eval.score }, floodgateScore(m.eval.score)), ' ',
      h('span.pv', m.eval.pv.join(' ')), h('span.meta', ` (${m.ply})`))];
  });
  card.hidden = rows.length === 0;
  clear(body, rows);
}

/// Whose move it is, and check.
function statusText(game: Game): string {
  return `${game.to_move === 'black' ? '☗' : '☖'} ${game.to_move === 'black' ? game.black : game.white} ${t('toMove')}${game.check ? ' — ' + t('check') : ''}`;
}

/// Follows game `id`: its live events (moves reload it, what others say goes onto `chat`),
/// watching again after a reconnection (e.g. the server restarted: the socket is new), the
/// clocks' tick and a slow poll besides (a lost event cannot leave the page stale). Returns
/// what stops it all.
function follow(id: number, me: string, chat: HTMLElement, status: HTMLElement, load: () => Promise<void>, tick: () => void,
  said?: (from: string, text: string) => void): () => void {
  const off = app.live?.on((e) => {
    if (e.game !== id) return;
    if (['move', 'undo', 'game_ended', 'game_started', 'notice'].includes(e.type)) load();
    if (['say', 'chat'].includes(e.type) && e.from !== me) said ? said(e.from, e.text) : chat.append(h('li', h('b', e.from + ': '), e.text));
  });
  const offStatus = app.live?.onStatus((up) => {
    status.classList.toggle('offline', !up);
    if (up) {
      app.live?.send({ type: 'watch', game: id, on: true });
      load();
    } else status.textContent = t('reconnecting');
  });
  if (app.live?.up) app.live.send({ type: 'watch', game: id, on: true });
  const ticker = setInterval(tick, 250);
  const poll = setInterval(load, 10000);
  return () => {
    off?.();
    offStatus?.();
    clearInterval(ticker);
    clearInterval(poll);
  };
}

/// The page of one game: its state (the game as last loaded, the ply browsed back to, the moves
/// announced) and the elements that show it.
class GamePage {
  readonly me = myName();
  game: Game | undefined;
  viewing = -1; // ply shown when browsing back (-1: the current position)
  receivedAt = 0;
  announced = -1; // moves already announced by sound and speech
  // Reloads overlap (after a move, on every live event, the slow poll): an answer older than
  // the one shown is dropped, whatever order the network delivered them in.
  asked = 0;
  shown = 0;
  readonly boardEl = h('div.board-area');
  readonly topBar = h('div.player-bar.top');
  readonly bottomBar = h('div.player-bar.bottom');
  readonly status = h('div.status', { role: 'status', 'aria-live': 'polite' });
  readonly moveList = h('ol.moves', { 'aria-label': t('moves') });
  readonly record = h('div.record');
  readonly evals = h('div.engine-evals');
  readonly evalCard = h('div.card', { hidden: true }, h('h3', t('engineEval')), this.evals);
  readonly chat = h('ul.plain.chat');
  readonly graph = h('div.graph');
  readonly muted = h('div.muted-list');
  readonly input = h('input', { name: 'move', 'aria-label': t('moveInput'), placeholder: t('moveInput'), autocomplete: 'off' });
  readonly board = new Board(this.boardEl, (usi) => this.play(usi));
  readonly banner = h('div.banner', { hidden: true });
  readonly controls: HTMLElement;
  // Issue 20: moves sent once (queued while offline), premoves, the low-time warning, conditional moves.
  readonly sender: MoveSender;
  readonly premoves: Premoves;
  readonly lowTime = new LowTime();
  readonly conditional: ConditionalCard;
  readonly pauses: PauseCard;

  constructor(readonly id: number) {
    this.controls = gameControls(id, () => this.load());
    this.sender = new MoveSender(id, () => this.load());
    this.premoves = new Premoves(this.board, (usi) => this.play(usi));
    this.conditional = new ConditionalCard(id);
    this.pauses = new PauseCard(id, () => this.load());
    this.input.onkeydown = async (e) => {
      if (e.key !== 'Enter' || !this.input.value.trim()) return;
      const text = this.input.value.trim();
      this.input.value = '';
      await this.play(text);
    };
  }

  myColor(): Side | undefined {
    const g = this.game;
    return g ? (g.black === this.me ? 'black' : g.white === this.me ? 'white' : undefined) : undefined;
  }

  async play(move: string): Promise<void> {
    if (!this.game) return;
    await this.sender.send(move, this.game.plies);
    await this.load();
  }

  renderMoves(): void {
    const g = this.game;
    if (!g?.moves) return;
    const shown = this.viewing < 0 ? g.moves.length : this.viewing;
    renderMoveList(this.moveList, g.moves, shown, (ply) => this.browse(ply));
    renderEvals(this.evalCard, this.evals, g, shown);
  }

  async browse(ply: number): Promise<void> {
    const g = this.game;
    if (!g?.moves) return;
    if (ply >= g.moves.length) {
      this.viewing = -1;
      this.show();
      return;
    }
    this.viewing = ply;
    const moves = g.moves.slice(0, ply).map((m) => m.usi).filter(isUsi);
    try {
      const p = await post<PositionInfo>('position', { sfen: g.start_sfen, moves });
      this.board.show({ sfen: p.sfen, legal: [], last: moves[moves.length - 1], check: p.check, movable: 'none' });
      this.renderMoves();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  /// The bars of the side at the top and at the bottom (as the board is turned).
  bars(): [HTMLElement, Side][] {
    const flipped = this.board.orientation() === 'gote';
    return [[this.topBar, flipped ? 'black' : 'white'], [this.bottomBar, flipped ? 'white' : 'black']];
  }

  show(): void {
    const game = this.game;
    if (!game) return;
    const board = this.board;
    const mine = this.myColor();
    if (mine && board.orientation() !== colorOf(mine) && !board.el.dataset.oriented) board.setOrientation(colorOf(mine));
    board.el.dataset.oriented = '1';
    const last = game.moves?.length ? game.moves[game.moves.length - 1].usi : undefined;
    const active = game.status === 'active' && !game.adjourned; // (an adjourned game takes no move)
    board.show({
      sfen: game.sfen,
      legal: active && mine === game.to_move ? game.legal || [] : [],
      last: last && isUsi(last) ? last : undefined,
      check: game.check,
      movable: active && mine ? mine : 'none',
    });
    for (const [el, side] of this.bars()) playerBar(el, game, this.receivedAt, side);
    const res = resultText(game);
    const playing = active && !!mine;
    this.premoves.enable(playing && !game.time_control.startsWith('corr'));
    this.controls.hidden = !playing;
    this.input.hidden = !playing;
    this.banner.hidden = !res;
    this.banner.textContent = res;
    this.status.textContent = res || statusText(game);
    this.renderMoves();
  }

  updateClocks(): void {
    const game = this.game;
    if (!game || game.status !== 'active') return;
    for (const [el, side] of this.bars()) {
      const c = el.querySelector('.clock');
      if (c) c.textContent = clockText(game, this.receivedAt, side);
      if (side === this.myColor()) this.lowTime.check(game, this.receivedAt, side, c);
    }
  }

  async load(): Promise<void> {
    const ask = ++this.asked;
    try {
      const g = await get<Game>(`games/${this.id}`);
      if (ask < this.shown) return;
      this.shown = ask;
      this.receivedAt = Date.now();
      const wasActive = this.game?.status === 'active';
      this.game = g;
      // Every move not yet announced (several loads may overlap; the first shows the history silently).
      const n = g.moves?.length ?? 0;
      if (this.announced < 0) this.announced = n;
      this.announced = announceMoves(g, this.announced);
      if (n < this.announced) this.announced = n; // taken back
      if (this.viewing < 0) this.show();
      if (g.status !== 'active') clear(this.graph, scoreGraph(g, (ply) => this.browse(ply)));
      this.conditional.update(g, this.myColor());
      this.pauses.update(g, this.myColor());
      void this.premoves.onTurn(g, this.myColor());
      if (g.status !== 'active' && (wasActive || !this.record.childElementCount)) {
        showRecord(this.record, this.id, g);
        const res = resultText(g);
        if (wasActive) {
          speak('', '', res);
          announce(res);
        }
      }
    } catch (e) {
      if (e instanceof ApiError) this.status.textContent = t('error') + ': ' + e.message;
    }
  }

  /// A chat line from another: say (a player) or kibitz (a watcher), none from a muted name;
  /// muting hides that name's lines already shown.
  said(from: string, text: string): void {
    const li = chatLine(this.game, from, text, () => {
      this.chat.querySelectorAll<HTMLElement>('li[data-from]').forEach((l) => isMuted(l.dataset.from!) && l.remove());
      mutedList(this.muted);
    });
    if (li) this.chat.append(li);
  }

  /// Keys: arrows browse the moves, f flips the board, m goes to the move input.
  key(e: KeyboardEvent): void {
    const g = this.game;
    if (e.key === 'Escape') this.premoves.cancel();
    if ((e.target as HTMLElement).tagName === 'INPUT' || !g?.moves) return;
    const cur = this.viewing < 0 ? g.moves.length : this.viewing;
    if (e.key === 'ArrowLeft') this.browse(Math.max(0, cur - 1));
    else if (e.key === 'ArrowRight') this.browse(cur + 1);
    else if (e.key === 'Home') this.browse(0);
    else if (e.key === 'End') this.browse(g.moves.length);
    else if (e.key === 'f') this.board.flip();
    else if (e.key === 'm') this.input.focus();
  }

  view(): View {
    const keys = (e: KeyboardEvent) => this.key(e);
    document.addEventListener('keydown', keys);
    const unfollow = follow(this.id, this.me, this.chat, this.status, () => this.load(), () => this.updateClocks(), (from, text) => this.said(from, text));
    const [watchers, stopWatchers] = spectatorsBadge(this.id);
    const wheel = (e: WheelEvent) => { // the wheel over the board browses the moves
      const n = this.game?.moves?.length ?? 0;
      if (!n) return;
      e.preventDefault();
      this.browse(Math.max(0, (this.viewing < 0 ? n : this.viewing) + (e.deltaY > 0 ? 1 : -1)));
    };
    this.boardEl.addEventListener('wheel', wheel, { passive: false });
    const offFlush = app.live?.onStatus((up) => up && void this.sender.flush()); // a move made offline
    if (app.live?.up) void this.sender.flush();
    const el = h('div.game-page',
      h('section.board-col', this.topBar, this.boardEl, this.bottomBar),
      h('section.side-col',
        this.banner,
        h('div.card', h('h2', `#${this.id} `, watchers), this.status, this.controls, this.input, this.premoves.note, this.sender.note),
        this.conditional.el,
        this.pauses.el,
        h('div.card', h('h3', t('moves')), this.moveList),
        this.evalCard,
        h('div.card', boardSettings(this.board, () => this.renderMoves())),
        this.graph,
        h('div.card', h('h3', t('say')), this.chat, sayInput(this.id, this.me, this.chat, () => !this.myColor()), this.muted),
        shareCard(this.id),
        this.record));
    mutedList(this.muted);
    this.load();
    return {
      el,
      dispose: () => {
        unfollow();
        stopWatchers();
        if (app.live?.up) app.live.send({ type: 'watch', game: this.id, on: false }); // (not counted as watching any more)
        offFlush?.();
        this.sender.stop();
        document.removeEventListener('keydown', keys);
        this.board.ground.destroy();
      },
    };
  }
}

export function gameView(id: number): View {
  return new GamePage(id).view();
}
