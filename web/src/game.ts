// A game: the board with the players' clocks, the move list, and the controls (resign, undo,
// flip, coordinates, notation, sound, speech, keyboard input, chat, the record when it ends).
import { ApiError, Game, PositionInfo, get, myName, post } from './api';
import { Board, Side, colorOf } from './board';
import { clear, fmtClock, h, toast } from './dom';
import { currentLang, t } from './i18n';
import { app, View } from './main';
import { announce, moveSound, prefs, speak } from './sound';

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

export function gameView(id: number): View {
  const me = myName();
  let game: Game | undefined;
  let viewing = -1; // ply shown when browsing back (-1: the current position)
  let receivedAt = 0;
  let announced = -1; // moves already announced by sound and speech
  const boardEl = h('div.board-area');
  const topBar = h('div.player-bar.top');
  const bottomBar = h('div.player-bar.bottom');
  const status = h('div.status', { role: 'status', 'aria-live': 'polite' });
  const moveList = h('ol.moves', { 'aria-label': t('moves') });
  const record = h('div.record');
  const chat = h('ul.plain.chat');
  const input = h('input', { name: 'move', 'aria-label': t('moveInput'), placeholder: t('moveInput'), autocomplete: 'off' });
  const board = new Board(boardEl, (usi) => play(usi));
  const banner = h('div.banner', { hidden: true });

  const myColor = (): Side | undefined => (game ? (game.black === me ? 'black' : game.white === me ? 'white' : undefined) : undefined);

  async function play(move: string): Promise<void> {
    if (!game) return;
    try {
      await post(`games/${id}/move`, { move });
      await load();
    } catch (e) {
      toast(String((e as Error).message), 'error');
      await load();
    }
  }

  /// The time shown for a side: its main time, then (to move, main time gone) what is left of
  /// the move's allowance (byoyomi); a correspondence game shows the days and hours left to move.
  function clockText(side: Side): string {
    if (!game) return '';
    const c = game.clock;
    const base = side === 'black' ? c.black_ms : c.white_ms;
    const toMove = game.status === 'active' && game.to_move === side && !!c.turn_started;
    const elapsed = toMove ? c.now - c.turn_started + (Date.now() - receivedAt) : 0;
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

  function bar(el: HTMLElement, side: Side): void {
    if (!game) return;
    const name = side === 'black' ? game.black : game.white;
    const turn = game.status === 'active' && game.to_move === side;
    el.classList.toggle('turn', turn);
    clear(el,
      h('span.mark', side === 'black' ? '☗' : '☖'),
      h('a.name', { href: `#/player/${encodeURIComponent(name)}` }, name),
      h('span.clock', { 'data-side': side, 'aria-label': t('remaining') }, clockText(side)));
  }

  function renderMoves(): void {
    if (!game?.moves) return;
    const useJa = notationPref() === 'ja';
    clear(moveList, game.moves.map((m, i) =>
      h('li', { class: i === (viewing < 0 ? game!.moves!.length - 1 : viewing - 1) ? 'current' : undefined, onclick: () => browse(i + 1), 'data-ply': m.ply },
        useJa && m.ja ? m.ja : `${m.by === 'black' ? '☗' : '☖'}${m.western}`)));
    moveList.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }

  async function browse(ply: number): Promise<void> {
    if (!game?.moves) return;
    if (ply >= game.moves.length) {
      viewing = -1;
      show();
      return;
    }
    viewing = ply;
    const moves = game.moves.slice(0, ply).map((m) => m.usi).filter(isUsi);
    try {
      const p = await post<PositionInfo>('position', { sfen: game.start_sfen, moves });
      board.show({ sfen: p.sfen, legal: [], last: moves[moves.length - 1], check: p.check, movable: 'none' });
      renderMoves();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  function show(): void {
    if (!game) return;
    const mine = myColor();
    if (mine && board.orientation() !== colorOf(mine) && !board.el.dataset.oriented) {
      board.setOrientation(colorOf(mine));
    }
    board.el.dataset.oriented = '1';
    const last = game.moves?.length ? game.moves[game.moves.length - 1].usi : undefined;
    const active = game.status === 'active';
    board.show({
      sfen: game.sfen,
      legal: active && mine === game.to_move ? game.legal || [] : [],
      last: last && isUsi(last) ? last : undefined,
      check: game.check,
      movable: active && mine ? mine : 'none',
    });
    const flipped = board.orientation() === 'gote';
    bar(topBar, flipped ? 'black' : 'white');
    bar(bottomBar, flipped ? 'white' : 'black');
    const res = resultText(game);
    const playing = active && !!mine;
    controls.hidden = !playing;
    input.hidden = !playing;
    banner.hidden = !res;
    banner.textContent = res;
    status.textContent = res || `${game.to_move === 'black' ? '☗' : '☖'} ${game.to_move === 'black' ? game.black : game.white} ${t('toMove')}${game.check ? ' — ' + t('check') : ''}`;
    renderMoves();
  }

  async function showRecord(): Promise<void> {
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

  // Reloads overlap (after a move, on every live event, the slow poll): an answer older than
  // the one shown is dropped, whatever order the network delivered them in.
  let asked = 0;
  let shown = 0;
  async function load(): Promise<void> {
    const ask = ++asked;
    try {
      const g = await get<Game>(`games/${id}`);
      if (ask < shown) return;
      shown = ask;
      receivedAt = Date.now();
      const wasActive = game?.status === 'active';
      game = g;
      // Every move not yet announced (several loads may overlap; the first shows the history silently).
      const n = g.moves?.length ?? 0;
      if (announced < 0) announced = n;
      for (; announced < n; ++announced) {
        const m = g.moves![announced];
        const check = announced === n - 1 && !!g.check;
        moveSound(check);
        speak(m.western, m.ja, check ? (currentLang() === 'ja' ? '王手' : 'check') : '');
        announce(`${m.by} ${m.western}${check ? ' check' : ''}`);
      }
      if (n < announced) announced = n; // taken back
      if (viewing < 0) show();
      if (g.status !== 'active' && (wasActive || !record.childElementCount)) {
        showRecord();
        const res = resultText(g);
        if (wasActive) {
          speak('', '', res);
          announce(res);
        }
      }
    } catch (e) {
      if (e instanceof ApiError) status.textContent = t('error') + ': ' + e.message;
    }
  }

  input.onkeydown = async (e) => {
    if (e.key !== 'Enter' || !input.value.trim()) return;
    const text = input.value.trim();
    input.value = '';
    await play(text);
  };
  const sayInput = h('input', { name: 'say', 'aria-label': t('say'), placeholder: t('say') });
  sayInput.onkeydown = async (e) => {
    if (e.key !== 'Enter' || !sayInput.value.trim()) return;
    try {
      await post(`games/${id}/say`, { text: sayInput.value, leave: true });
      chat.append(h('li.mine', h('b', me + ': '), sayInput.value));
      sayInput.value = '';
    } catch (err) {
      toast(String((err as Error).message), 'error');
    }
  };
  const keys = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).tagName === 'INPUT' || !game?.moves) return;
    const cur = viewing < 0 ? game.moves.length : viewing;
    if (e.key === 'ArrowLeft') browse(Math.max(0, cur - 1));
    else if (e.key === 'ArrowRight') browse(cur + 1);
    else if (e.key === 'f') board.flip();
    else if (e.key === 'm') input.focus();
  };
  document.addEventListener('keydown', keys);

  const off = app.live?.on((e) => {
    if (e.game !== id) return;
    if (['move', 'undo', 'game_ended', 'game_started'].includes(e.type)) load();
    if (['say', 'chat'].includes(e.type) && e.from !== me) chat.append(h('li', h('b', e.from + ': '), e.text));
  });
  // After a reconnection (e.g. the server restarted), the socket is new: watch again and reload.
  const offStatus = app.live?.onStatus((up) => {
    status.classList.toggle('offline', !up);
    if (up) {
      app.live?.send({ type: 'watch', game: id, on: true });
      load();
    } else status.textContent = t('reconnecting');
  });
  if (app.live?.up) app.live.send({ type: 'watch', game: id, on: true });
  const tick = setInterval(() => {
    if (!game || game.status !== 'active') return;
    const flipped = board.orientation() === 'gote';
    for (const [el, side] of [[topBar, flipped ? 'black' : 'white'], [bottomBar, flipped ? 'white' : 'black']] as [HTMLElement, Side][]) {
      const c = el.querySelector('.clock');
      if (c) c.textContent = clockText(side);
    }
  }, 250);
  // A slow poll besides the live events (a lost event cannot leave the page stale).
  const poll = setInterval(load, 10000);

  const controls = h('div.controls',
    h('button', { name: 'resign', onclick: async () => { if (confirm(t('resign') + '?')) { try { await post(`games/${id}/resign`); load(); } catch (e) { toast(String((e as Error).message), 'error'); } } } }, t('resign')),
    h('button', { name: 'undo', onclick: async () => { try { await post(`games/${id}/undo`, {}); load(); } catch (e) { toast(String((e as Error).message), 'error'); } } }, '↶ ', t('undo')),
    h('a.button', { href: `#/analysis/game-${id}` }, t('analysis')));

  const el = h('div.game-page',
    h('section.board-col', topBar, boardEl, bottomBar),
    h('section.side-col',
      banner,
      h('div.card', h('h2', `#${id}`), status, controls, input),
      h('div.card', h('h3', t('moves')), moveList),
      h('div.card', boardSettings(board, renderMoves)),
      h('div.card', h('h3', t('say')), chat, sayInput),
      record));
  load();
  return {
    el,
    dispose: () => {
      off?.();
      offStatus?.();
      clearInterval(tick);
      clearInterval(poll);
      document.removeEventListener('keydown', keys);
      board.ground.destroy();
    },
  };
}
