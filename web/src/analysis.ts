// The analysis board: records (load/save in every format, move list with variations and
// comments), free play from any position, the engine's live lines and evaluation (MultiPV,
// arrows, a graph over the game), the tsume solver, and the board editor.
import { Game, MoveText, ParsedRecord, PositionInfo, TsumeAnswer, call, get, post, postForFile, myName } from './api';
import { Board, LETTER_OF, PROMOTABLE, UNPROMOTED, splitSfen, colorOf } from './board';
import { clear, h, toast } from './dom';
import { t } from './i18n';
import { app, View } from './main';
import { boardSettings, downloadTitle, isUsi, notationPref } from './game';
import type { Piece, Key } from 'shogiground/types';

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const ROLES = ['king', 'rook', 'bishop', 'gold', 'silver', 'knight', 'lance', 'pawn'];
const HAND_ROLES = ['rook', 'bishop', 'gold', 'silver', 'knight', 'lance', 'pawn'];

function decodeFile(buf: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder('shift_jis').decode(buf);
  }
}

interface Line { cp?: number; mate?: number; depth: number; pv: MoveText[] }

function scoreText(l: { cp?: number; mate?: number }): string {
  if (l.mate !== undefined) return (l.mate > 0 ? '+' : '−') + 'M' + Math.abs(l.mate);
  const v = (l.cp ?? 0) / 100;
  return (v > 0 ? '+' : v < 0 ? '−' : '') + Math.abs(v).toFixed(2);
}

function scoreValue(l: { cp?: number; mate?: number }): number {
  if (l.mate !== undefined) return l.mate > 0 ? 3000 : -3000;
  return Math.max(-3000, Math.min(3000, l.cp ?? 0));
}

export function analysisView(arg: string): View {
  let editing = arg === 'editor';
  let startSfen = START;
  let startComments: string[] = [];
  let line: MoveText[] = [];
  let cursor = 0; // moves played from the start
  let info: PositionInfo | undefined;
  let analyzing = false;
  const lines = new Map<number, Line>();
  const evals: (number | undefined)[] = [];
  let graphRun: { ply: number; last?: Line } | undefined;

  const boardEl = h('div.board-area');
  const board = new Board(boardEl, (usi) => playMove(usi));
  const moveList = h('div.moves.tree', { 'aria-label': t('moves') });
  const comments = h('div.comments');
  const headers = h('dl.headers');
  const engineOut = h('div.engine');
  const evalBar = h('div.eval-bar', h('div.fill'));
  const graph = h('div.graph');
  const tsumeOut = h('div.tsume-out', { role: 'status' });
  const sfenBox = h('input.sfen', { name: 'sfen', 'aria-label': 'SFEN', spellcheck: false });
  const multipv = h('select', { name: 'multipv', 'aria-label': t('multipv') }, [1, 2, 3, 4, 5].map((n) => h('option', { value: n, selected: n === 3 }, String(n))));

  const movesTo = (n: number) => line.slice(0, n).map((m) => m.usi);

  async function refresh(): Promise<void> {
    try {
      info = await post<PositionInfo>('position', { sfen: startSfen, moves: movesTo(cursor) });
    } catch (e) {
      toast(String((e as Error).message), 'error');
      return;
    }
    if (!editing) {
      board.show({ sfen: info.sfen, legal: info.legal, last: cursor ? line[cursor - 1].usi : undefined, check: info.check, movable: 'both' });
    }
    sfenBox.value = editing ? editorSfen() : info.sfen;
    renderMoves();
    const c = cursor ? line[cursor - 1].comments : startComments;
    clear(comments, c?.length ? [h('h3', t('comments')), ...c.map((x) => h('p', x))] : null);
    if (analyzing) startEngine();
    else board.setArrows([]);
  }

  function renderMoves(): void {
    const ja = notationPref() === 'ja';
    const label = (m: MoveText, ply: number) => (ja ? m.ja : `${ply}. ${m.western}`);
    clear(moveList,
      h('span.move', { class: cursor === 0 ? 'current' : undefined, onclick: () => go(0) }, '☖☗ ' + (ja ? '開始局面' : 'Start')),
      line.map((m, i) => [
        h('span.move', { class: cursor === i + 1 ? 'current' : undefined, 'data-ply': i + 1, onclick: () => go(i + 1) }, label(m, i + 1)),
        m.comments?.length ? h('span.has-comment', { title: m.comments.join('\n') }, '💬') : null,
        m.variations?.length
          ? h('div.variations', m.variations.map((v, k) =>
              h('button.small.variation', { 'data-variation': `${i + 1}-${k}`, onclick: () => {
                // The line left becomes a variation of the one taken, so either can be reached again.
                const tail = line.slice(i);
                const others = (m.variations || []).filter((_, j) => j !== k);
                const head: MoveText = { ...v[0], variations: [[{ ...tail[0], variations: undefined }, ...tail.slice(1)], ...others] };
                line = [...line.slice(0, i), head, ...v.slice(1)];
                go(i + 1);
              } },
                `${t('variations')} ${k + 1}: ${v.slice(0, 4).map((x, j) => label(x, i + 1 + j)).join(' ')}`)))
          : null,
      ]));
    moveList.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  function go(n: number): void {
    cursor = Math.max(0, Math.min(line.length, n));
    refresh();
  }

  async function playMove(usi: string): Promise<void> {
    if (cursor < line.length && line[cursor].usi === usi) {
      go(cursor + 1);
      return;
    }
    try {
      const p = await post<PositionInfo>('position', { sfen: startSfen, moves: [...movesTo(cursor), usi] });
      const played = p.moves[p.moves.length - 1];
      // The old continuation stays reachable as a variation of the new move.
      if (cursor < line.length) played.variations = [line.slice(cursor), ...(line[cursor].variations || [])];
      line = [...line.slice(0, cursor), played];
      go(cursor + 1);
    } catch (e) {
      toast(String((e as Error).message), 'error');
      refresh();
    }
  }

  // --- records
  const recordText = h('textarea', { name: 'record', rows: 6, 'aria-label': t('loadRecord'), placeholder: 'KIF / KI2 / CSA / PSN / SFEN' });
  const fileInput = h('input', { type: 'file', name: 'record_file', accept: '.kif,.kifu,.ki2,.ki2u,.csa,.psn,.sfen,.usi,.gam,.txt', 'aria-label': 'file' });
  let fileName = '';
  fileInput.onchange = async () => {
    const f = fileInput.files?.[0];
    if (!f) return;
    fileName = f.name;
    recordText.value = decodeFile(await f.arrayBuffer());
    loadRecord();
  };
  async function loadRecord(): Promise<void> {
    try {
      const r = await post<ParsedRecord>('record/parse', { text: recordText.value, name: fileName });
      setEditing(false);
      startSfen = r.start_sfen;
      startComments = r.start_comments;
      line = r.moves;
      cursor = 0;
      clear(headers, r.headers.map((x) => [h('dt', x.key), h('dd', x.value)]), r.result ? [h('dt', t('result')), h('dd', `${r.result} ${r.winner}`)] : null);
      evals.length = 0;
      drawGraph();
      refresh();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }
  const saveFormat = h('select', { name: 'save_format', 'aria-label': t('saveAs') }, ['kif', 'kifu', 'ki2', 'ki2u', 'csa', 'psn', 'sfen', 'usi', 'western'].map((f) => h('option', { value: f, title: downloadTitle(f) }, f.toUpperCase())));
  async function save(): Promise<void> {
    try {
      // The server writes the file as desktop programs expect it (.kif and .ki2 in Shift_JIS).
      const file = await postForFile('record/write', { sfen: startSfen, moves: movesTo(line.length), format: saveFormat.value, headers: {} });
      const a = h('a', { href: URL.createObjectURL(file), download: `hisha.${saveFormat.value === 'western' ? 'txt' : saveFormat.value}` });
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  // --- the engine
  function startEngine(): void {
    if (!app.live || !myName()) {
      clear(engineOut, h('p.meta', t('login') + ' — ' + t('analysis')));
      return;
    }
    lines.clear();
    app.live.fire({ type: 'analyze', sfen: startSfen, moves: movesTo(cursor), multipv: Number(multipv.value), movetime_ms: 30000, tag: `pos-${cursor}` });
    clear(engineOut, h('p.meta', t('engineThinking')));
  }
  function stopEngine(): void {
    analyzing = false;
    app.live?.fire({ type: 'analyze_stop' });
    board.setArrows([]);
    analyzeButton.textContent = t('analyze');
  }
  function renderLines(): void {
    const sorted = [...lines.entries()].sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const ja = notationPref() === 'ja';
    const best = sorted[0];
    if (best) {
      const v = scoreValue(best);
      (evalBar.firstChild as HTMLElement).style.height = `${50 + (50 * v) / 3000 * 1.5}%`;
      evalBar.title = scoreText(best);
    }
    clear(engineOut,
      best ? h('div.eval-line', h('b.score', { 'data-score': scoreText(best) }, scoreText(best)), h('span.meta', ` ${t('depth')} ${best.depth}`)) : null,
      h('ol.pv', sorted.map((l) => h('li', h('b', scoreText(l)), ' ', l.pv.slice(0, 12).map((m) => (ja ? m.ja : m.western)).join(' ')))));
    board.setArrows(sorted.map((l) => l.pv.slice(0, 1).map((m) => m.usi)));
  }
  const offLive = app.live?.on((e) => {
    if (e.type === 'error' && typeof e.tag === 'string' && (e.tag.startsWith('pos-') || e.tag.startsWith('graph-'))) {
      graphRun = undefined;
      clear(engineOut, h('p.error', e.message));
      return;
    }
    if (e.type === 'analysis') {
      const l: Line = { cp: e.cp, mate: e.mate, depth: e.depth, pv: e.pv };
      if (graphRun && e.tag === `graph-${graphRun.ply}`) {
        if (e.multipv === 1) graphRun.last = l;
        return;
      }
      if (e.tag !== `pos-${cursor}` || !analyzing) return;
      lines.set(e.multipv, l);
      renderLines();
    } else if (e.type === 'analysis_done' && graphRun && e.tag === `graph-${graphRun.ply}`) {
      // No line and no move: the side to move is checkmated (or has no move at all).
      const blackToMove = (splitSfen(startSfen).turn === 'black') === (graphRun.ply % 2 === 0);
      evals[graphRun.ply] = graphRun.last ? scoreValue(graphRun.last) : !e.best ? (blackToMove ? -3000 : 3000) : undefined;
      drawGraph();
      const next = graphRun.ply + 1;
      if (next <= line.length) {
        graphRun = { ply: next };
        app.live?.fire({ type: 'analyze', sfen: startSfen, moves: movesTo(next), multipv: 1, movetime_ms: 300, tag: `graph-${next}` });
      } else {
        graphRun = undefined;
        if (analyzing) startEngine();
      }
    }
  });
  const analyzeButton = h('button.primary', { name: 'analyze', onclick: () => {
    if (analyzing) stopEngine();
    else {
      analyzing = true;
      analyzeButton.textContent = t('stop');
      startEngine();
    }
  } }, t('analyze'));
  multipv.onchange = () => analyzing && startEngine();

  function graphGame(): void {
    if (!app.live) return;
    evals.length = 0;
    graphRun = { ply: 0 };
    app.live.fire({ type: 'analyze', sfen: startSfen, moves: [], multipv: 1, movetime_ms: 300, tag: 'graph-0' });
  }
  function drawGraph(): void {
    graph.hidden = !evals.some((v) => v !== undefined);
    const n = Math.max(line.length, 1);
    const W = 300, H = 80;
    const pts = evals.map((v, i) => (v === undefined ? null : `${(i / n) * W},${H / 2 - (v / 3000) * (H / 2)}`)).filter(Boolean).join(' ');
    graph.innerHTML = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${t('graph')}"><rect width="${W}" height="${H / 2}" class="g-black"/><rect y="${H / 2}" width="${W}" height="${H / 2}" class="g-white"/><line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" class="g-axis"/><polyline points="${pts}" class="g-line"/></svg>`;
    graph.onclick = (e) => {
      const r = graph.getBoundingClientRect();
      go(Math.round(((e.clientX - r.left) / r.width) * n));
    };
  }

  // --- tsume
  async function solve(): Promise<void> {
    const sfen = editing ? editorSfen() : info?.sfen || startSfen;
    if (!myName()) {  // the solver serves logged-in players only
      clear(tsumeOut, h('p.meta', t('login') + ' — ' + t('tsume')));
      return;
    }
    clear(tsumeOut, t('solving'));
    try {
      const r = await call<TsumeAnswer>('POST', 'tsume', { sfen, convention: 'tsume', time_limit_s: 20 });
      if (r.status === 'mate') {
        const ja = notationPref() === 'ja';
        clear(tsumeOut,
          h('b.tsume-result', { 'data-length': r.length }, `${r.length}${t('mateIn') === '手詰' ? '手詰' : ''}`.replace(/^(\d+)$/, `${t('mateIn')} $1`)),
          h('span.meta', ` ${r.nodes} nodes, ${r.time_ms} ms${r.exact ? '' : ' (not proven shortest)'}`),
          h('p.tsume-line', r.moves.map((m) => (ja ? m.ja : m.western)).join(' ')),
          h('button.small', { name: 'show-solution', onclick: () => {
            setEditing(false);
            startSfen = sfen;
            line = r.moves;
            go(0);
          } }, t('showSolution')));
      } else clear(tsumeOut, h('b.tsume-result', r.status === 'nomate' ? t('noMate') : r.status === 'timeout' ? t('timeout') : `${t('error')}: ${r.error}`));
    } catch (e) {
      clear(tsumeOut, h('span.error', String((e as Error).message)));
    }
  }

  // --- the editor
  let spare: Piece | 'trash' | undefined;
  const palette = h('div.palette');
  const handsEdit = h('div.hands-edit');
  const sideSelect = h('select', { name: 'side_to_move', 'aria-label': t('sideToMove') }, h('option', { value: 'b' }, t('black')), h('option', { value: 'w' }, t('white')));
  function editorSfen(): string {
    return `${board.ground.getBoardSfen()} ${sideSelect.value} ${board.ground.getHandsSfen() || '-'} 1`;
  }
  function renderPalette(): void {
    sfenBox.value = editorSfen();
    const pieceButton = (p: Piece) =>
      h('button.spare', {
        class: spare !== 'trash' && spare?.role === p.role && spare?.color === p.color ? 'selected' : undefined,
        'data-piece': `${p.color} ${p.role}`, title: `${p.color} ${p.role}`, 'aria-label': `${p.color} ${p.role}`,
        onclick: () => { spare = spare !== 'trash' && spare?.role === p.role && spare.color === p.color ? undefined : p; renderPalette(); },
      }, Object.assign(document.createElement('piece'), { className: `${p.color} ${p.role}` }));
    clear(palette,
      ['sente', 'gote'].map((color) => h('div.palette-row', [...ROLES, 'tokin', 'horse', 'dragon'].map((role) => pieceButton({ role, color: color as 'sente' | 'gote' })))),
      h('button.spare', { name: 'trash', class: spare === 'trash' ? 'selected' : undefined, onclick: () => { spare = spare === 'trash' ? undefined : 'trash'; renderPalette(); } }, t('remove')));
    const counts = splitSfen(editorSfen()).hands;
    clear(handsEdit, ['sente', 'gote'].map((color) =>
      h('div.hand-row', h('span', color === 'sente' ? '☗ ' : '☖ '), HAND_ROLES.map((role) => {
        const letter = LETTER_OF[role];
        const re = new RegExp(`(\\d*)${color === 'sente' ? letter : letter.toLowerCase()}`);
        const m = counts.match(re);
        const n = m ? Number(m[1] || 1) : 0;
        const piece = { role, color: color as 'sente' | 'gote' };
        return h('span.hand-count', h('button.small', { 'data-hand': `${color} ${role} -`, onclick: () => { if (n) board.ground.removeFromHand(piece); renderPalette(); } }, '−'),
          h('span', ` ${letter}${n} `), h('button.small', { 'data-hand': `${color} ${role} +`, onclick: () => { board.ground.addToHand(piece); renderPalette(); } }, '+'));
      }))));
  }
  function setEditing(on: boolean): void {
    editing = on;
    el.classList.toggle('editing', on);
    board.ground.set({
      activeColor: on ? 'both' : undefined,
      movable: { free: on },
      droppable: { free: on },
      draggable: { deleteOnDropOff: on },
    });
    if (on) {
      const p = splitSfen(info?.sfen || startSfen);
      sideSelect.value = p.turn === 'white' ? 'w' : 'b';
      board.ground.set({ lastDests: [], checks: false });
      renderPalette();
    }
  }
  board.ground.set({
    events: {
      change: () => {
        if (editing) sfenBox.value = editorSfen();
      },
      select: (key: Key) => {
        if (!editing || !spare) return;
        const cur = board.ground.state.pieces.get(key);
        if (spare === 'trash') board.ground.setPieces(new Map([[key, undefined]]));
        else if (cur && cur.color === spare.color && (PROMOTABLE[cur.role] === spare.role || UNPROMOTED[cur.role] === spare.role)) board.ground.setPieces(new Map([[key, spare]]));
        else board.ground.setPieces(new Map([[key, { ...spare }]]));
        board.ground.selectSquare(null);
        sfenBox.value = editorSfen();
      },
    },
  });
  const editorPanel = h('div.card.editor-panel',
    h('h3', t('editor')),
    h('p.meta', t('editHint')),
    palette,
    h('h4', t('hands')), handsEdit,
    h('label', t('sideToMove'), ' ', sideSelect),
    h('div.row',
      h('button', { name: 'startpos', onclick: () => { board.ground.set({ sfen: { board: splitSfen(START).board, hands: '' } }); renderPalette(); } }, t('startPos')),
      h('button', { name: 'clear', onclick: () => { board.ground.set({ sfen: { board: '9/9/9/9/9/9/9/9/9', hands: '' } }); renderPalette(); } }, t('clear'))),
    h('div.row',
      h('button.primary', { name: 'use-position', onclick: () => { startSfen = editorSfen(); line = []; cursor = 0; setEditing(false); refresh(); } }, t('usePosition')),
      h('button', { name: 'solve', onclick: solve }, t('solveTsume'))));
  const editToggle = h('button', { name: 'edit', onclick: () => { if (editing) { startSfen = editorSfen(); line = []; cursor = 0; setEditing(false); refresh(); } else setEditing(true); } }, '✎ ', t('editor'));

  sfenBox.onkeydown = (e) => {
    if (e.key === 'Enter') {
      startSfen = sfenBox.value.trim();
      line = [];
      cursor = 0;
      setEditing(false);
      refresh();
    }
  };
  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (e.key === 'ArrowLeft') go(cursor - 1);
    else if (e.key === 'ArrowRight') go(cursor + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(line.length);
    else if (e.key === 'f') board.flip();
  };
  document.addEventListener('keydown', keys);

  const nav = h('div.nav-buttons',
    h('button', { name: 'first', onclick: () => go(0), 'aria-label': t('first') }, '|◀'),
    h('button', { name: 'prev', onclick: () => go(cursor - 1), 'aria-label': t('prev') }, '◀'),
    h('button', { name: 'next', onclick: () => go(cursor + 1), 'aria-label': t('next') }, '▶'),
    h('button', { name: 'last', onclick: () => go(line.length), 'aria-label': t('last') }, '▶|'),
    editToggle);
  const keyInput = h('input', { name: 'move', 'aria-label': t('moveInput'), placeholder: 'USI: 7g7f, P*5e', autocomplete: 'off' });
  keyInput.onkeydown = (e) => {
    if (e.key !== 'Enter') return;
    const v = keyInput.value.trim();
    keyInput.value = '';
    if (!isUsi(v)) {
      // Other notations: ask the server which legal move the text means.
      const match = info?.legal.find((u) => u === v);
      if (!match) return void toast('USI moves here (7g7f, P*5e, 2b3c+)', 'error');
    }
    playMove(v);
  };

  const tsumeCard = h('div.card', h('h3', t('tsume')), h('button', { name: 'solve-current', onclick: solve }, t('solveTsume')), tsumeOut);
  const el = h('div.analysis-page',
    h('section.board-col', h('div.board-with-bar', evalBar, boardEl), nav, h('label.sfen-row', 'SFEN ', sfenBox)),
    h('section.side-col',
      editorPanel,
      tsumeCard,
      h('div.card', h('h3', t('evaluation')), h('div.row', analyzeButton, h('label', t('multipv'), ' ', multipv), h('button', { name: 'graph', onclick: graphGame }, t('analyzeGame'))), engineOut, graph),
      h('div.card', h('h3', t('moves')), moveList, comments, keyInput),
      h('div.card', h('h3', t('records')), h('p.meta', t('loadRecord')), recordText, h('div.row', fileInput, h('button.primary', { name: 'load', onclick: loadRecord }, t('load'))),
        h('div.row', h('label', t('saveAs'), ' ', saveFormat), h('button', { name: 'save', onclick: save }, t('download'))), headers),
      h('div.card', boardSettings(board, renderMoves))));

  (async () => {
    if (arg.startsWith('game-')) {
      try {
        const g = await get<Game>(`games/${Number(arg.slice(5))}`);
        startSfen = g.start_sfen || START;
        const usis = (g.moves || []).map((m) => m.usi).filter(isUsi);
        const p = await post<PositionInfo>('position', { sfen: startSfen, moves: usis });
        line = p.moves;
        cursor = line.length;
      } catch (e) {
        toast(String((e as Error).message), 'error');
      }
    }
    await refresh();
    if (editing) setEditing(true);
    drawGraph();
  })();
  board.setOrientation(colorOf('black'));
  return {
    el,
    dispose: () => {
      if (analyzing || graphRun) app.live?.fire({ type: 'analyze_stop' });
      offLive?.();
      document.removeEventListener('keydown', keys);
      board.ground.destroy();
    },
  };
}
