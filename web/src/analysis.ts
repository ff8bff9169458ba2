// The analysis board: records (load/save in every format, move list with variations and
// comments), free play from any position, the engine's live lines and evaluation (MultiPV,
// arrows, a graph over the game), the tsume solver, and the board editor.
import { Game, MoveText, ParsedRecord, PositionInfo, TsumeAnswer, call, get, post, postForFile, myName } from './api';
import type { EventHandler } from './api';
import { Board, LETTER_OF, PROMOTABLE, UNPROMOTED, splitSfen, colorOf } from './board';
import { clear, h, toast } from './dom';
import { t } from './i18n';
import { app, View } from './app';
import { boardSettings, downloadTitle, isUsi, notationPref } from './game';
import { explainPanel } from './tsume-explain';
import type { Piece, Key } from 'shogiground/types';
import { browserEngine, browserEngineAvailable } from './wasm-engine';
import type { WorkerLine } from './wasm-engine';
import { offlinePosition, offlineRecord } from './offline';

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
type LiveEvent = Parameters<EventHandler>[0];

function scoreText(l: { cp?: number; mate?: number }): string {
  if (l.mate !== undefined) return (l.mate > 0 ? '+' : '−') + 'M' + Math.abs(l.mate);
  const v = (l.cp ?? 0) / 100;
  return (v > 0 ? '+' : v < 0 ? '−' : '') + Math.abs(v).toFixed(2);
}

function scoreValue(l: { cp?: number; mate?: number }): number {
  if (l.mate !== undefined) return l.mate > 0 ? 3000 : -3000;
  return Math.max(-3000, Math.min(3000, l.cp ?? 0));
}

/// The analysis page: its state (the start position, the line of moves with its variations, the
/// move shown, the engine's lines, the evaluations graphed, the editor) and the elements that show it.
class AnalysisPage {
  editing: boolean;
  startSfen = START;
  startComments: string[] = [];
  line: MoveText[] = [];
  cursor = 0; // moves played from the start
  info: PositionInfo | undefined;
  analyzing = false;
  engineKind: 'browser' | 'server' | undefined; // which engine's lines are shown
  readonly lines = new Map<number, Line>();
  readonly evals: (number | undefined)[] = [];
  graphRun: { ply: number; last?: Line } | undefined;
  fileName = '';
  spare: Piece | 'trash' | undefined; // the editor's piece (or the eraser) that a click puts down

  readonly boardEl = h('div.board-area');
  readonly board = new Board(this.boardEl, (usi) => this.playMove(usi));
  readonly moveList = h('div.moves.tree', { 'aria-label': t('moves') });
  readonly comments = h('div.comments');
  readonly headers = h('dl.headers');
  readonly engineOut = h('div.engine');
  readonly evalBar = h('div.eval-bar', h('div.fill'));
  readonly graph = h('div.graph');
  readonly tsumeOut = h('div.tsume-out', { role: 'status' });
  readonly sfenBox = h('input.sfen', { name: 'sfen', 'aria-label': 'SFEN', spellcheck: false });
  readonly multipv = h('select', { name: 'multipv', 'aria-label': t('multipv') }, [1, 2, 3, 4, 5].map((n) => h('option', { value: n, selected: n === 3 }, String(n))));
  readonly recordText = h('textarea', { name: 'record', rows: 6, 'aria-label': t('loadRecord'), placeholder: 'KIF / KI2 / CSA / PSN / SFEN' });
  readonly fileInput = h('input', { type: 'file', name: 'record_file', accept: '.kif,.kifu,.ki2,.ki2u,.csa,.psn,.sfen,.usi,.gam,.txt', 'aria-label': 'file' });
  readonly saveFormat = h('select', { name: 'save_format', 'aria-label': t('saveAs') }, ['kif', 'kifu', 'ki2', 'ki2u', 'csa', 'psn', 'sfen', 'usi', 'western'].map((f) => h('option', { value: f, title: downloadTitle(f) }, f.toUpperCase())));
  readonly analyzeButton = h('button.primary', { name: 'analyze', onclick: () => this.toggleAnalysis() }, t('analyze'));
  readonly palette = h('div.palette');
  readonly handsEdit = h('div.hands-edit');
  readonly sideSelect = h('select', { name: 'side_to_move', 'aria-label': t('sideToMove') }, h('option', { value: 'b' }, t('black')), h('option', { value: 'w' }, t('white')));
  readonly keyInput = h('input', { name: 'move', 'aria-label': t('moveInput'), placeholder: 'USI: 7g7f, P*5e', autocomplete: 'off' });
  el!: HTMLElement;

  constructor(readonly arg: string) {
    this.editing = arg === 'editor';
    this.fileInput.onchange = () => this.loadFile();
    this.multipv.onchange = () => this.analyzing && this.startEngine();
    this.sfenBox.onkeydown = (e) => {
      if (e.key === 'Enter') this.usePosition(this.sfenBox.value.trim());
    };
    this.keyInput.onkeydown = (e) => this.typedMove(e);
    this.board.ground.set({ events: { change: () => this.editorChanged(), select: (key: Key) => this.editorPut(key) } });
  }

  movesTo(n: number): string[] {
    return this.line.slice(0, n).map((m) => m.usi);
  }

  /// The position after `moves` from the server, or, when it cannot be reached (offline), from
  /// the browser's engine; `early` is given the page's own reckoning of it first (offline.ts), so
  /// the board shows its pieces while the engine loads, or for good where none is shipped.
  async positionInfo(moves: string[], early?: (p: PositionInfo) => void): Promise<PositionInfo> {
    try {
      return await post<PositionInfo>('position', { sfen: this.startSfen, moves });
    } catch (e) {
      return offlinePosition(e, this.startSfen, moves, early);
    }
  }

  async refresh(): Promise<void> {
    const cursor = this.cursor;
    const draw = (info: PositionInfo) => {
      if (this.cursor !== cursor) return;
      if (!this.editing)
        this.board.show({ sfen: info.sfen, legal: info.legal, last: cursor ? this.line[cursor - 1].usi : undefined, check: info.check, movable: 'both' });
      this.sfenBox.value = this.editing ? this.editorSfen() : info.sfen;
    };
    let info: PositionInfo;
    try {
      info = await this.positionInfo(this.movesTo(cursor), draw);
    } catch (e) {
      toast(String((e as Error).message), 'error');
      return;
    }
    if (this.cursor !== cursor) return;
    this.info = info;
    draw(info);
    this.renderMoves();
    const c = cursor ? this.line[cursor - 1].comments : this.startComments;
    clear(this.comments, c?.length ? [h('h3', t('comments')), ...c.map((x) => h('p', x))] : null);
    if (this.analyzing) this.startEngine();
    else {
      // The lines of another position go (they stayed after a stop, under a new position).
      this.board.setArrows([]);
      if (this.lines.size) clear(this.engineOut);
      this.lines.clear();
    }
  }

  renderMoves(): void {
    const ja = notationPref() === 'ja';
    const label = (m: MoveText, ply: number) => (ja ? m.ja : `${ply}. ${m.western}`);
    const cursor = this.cursor;
    clear(this.moveList,
      h('span.move', { class: cursor === 0 ? 'current' : undefined, onclick: () => this.go(0) }, '☖☗ ' + (ja ? '開始局面' : 'Start')),
      this.line.map((m, i) => [
        h('span.move', { class: cursor === i + 1 ? 'current' : undefined, 'data-ply': i + 1, onclick: () => this.go(i + 1) }, label(m, i + 1)),
        m.comments?.length ? h('span.has-comment', { title: m.comments.join('\n') }, '💬') : null,
        m.variations?.length
          ? h('div.variations', m.variations.map((v, k) =>
              h('button.small.variation', { 'data-variation': `${i + 1}-${k}`, onclick: () => this.takeVariation(i, k) },
                `${t('variations')} ${k + 1}: ${v.slice(0, 4).map((x, j) => label(x, i + 1 + j)).join(' ')}`)))
          : null,
      ]));
    this.moveList.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  /// Variation k of move i replaces the line from there; the line left becomes a variation of the
  /// one taken, so either can be reached again.
  takeVariation(i: number, k: number): void {
    const m = this.line[i];
    const v = (m.variations || [])[k];
    const tail = this.line.slice(i);
    const others = (m.variations || []).filter((_, j) => j !== k);
    const head: MoveText = { ...v[0], variations: [[{ ...tail[0], variations: undefined }, ...tail.slice(1)], ...others] };
    this.line = [...this.line.slice(0, i), head, ...v.slice(1)];
    this.go(i + 1);
  }

  go(n: number): void {
    this.cursor = Math.max(0, Math.min(this.line.length, n));
    this.refresh();
  }

  async playMove(usi: string): Promise<void> {
    const cursor = this.cursor;
    if (cursor < this.line.length && this.line[cursor].usi === usi) {
      this.go(cursor + 1);
      return;
    }
    // No legal move known: the game is over, or offline without the browser's engine (the
    // page draws positions but does not judge moves).
    if (this.info && !this.info.legal.length) return void toast(t('noMove'), 'error');
    try {
      const p = await this.positionInfo([...this.movesTo(cursor), usi]);
      const played = p.moves[p.moves.length - 1];
      // The old continuation stays reachable as a variation of the new move.
      if (cursor < this.line.length) played.variations = [this.line.slice(cursor), ...(this.line[cursor].variations || [])];
      this.line = [...this.line.slice(0, cursor), played];
      this.go(cursor + 1);
    } catch (e) {
      toast(String((e as Error).message), 'error');
      this.refresh();
    }
  }

  /// A move typed in USI (the board takes the other notations by drag and drop).
  typedMove(e: KeyboardEvent): void {
    if (e.key !== 'Enter') return;
    const v = this.keyInput.value.trim();
    this.keyInput.value = '';
    if (!isUsi(v) && !this.info?.legal.find((u) => u === v)) return void toast('USI moves here (7g7f, P*5e, 2b3c+)', 'error');
    this.playMove(v);
  }

  /// A new start position (the editor's, or an SFEN typed in) with no moves.
  usePosition(sfen: string): void {
    this.startSfen = sfen;
    this.line = [];
    this.cursor = 0;
    this.setEditing(false);
    this.refresh();
  }

  // --- records

  async loadFile(): Promise<void> {
    const f = this.fileInput.files?.[0];
    if (!f) return;
    this.fileName = f.name;
    this.recordText.value = decodeFile(await f.arrayBuffer());
    this.loadRecord();
  }

  async loadRecord(): Promise<void> {
    try {
      const r = await this.parseRecord(this.recordText.value, this.fileName);
      this.setEditing(false);
      this.startSfen = r.start_sfen;
      this.startComments = r.start_comments;
      this.line = r.moves;
      this.cursor = 0;
      clear(this.headers, r.headers.map((x) => [h('dt', x.key), h('dd', x.value)]), r.result ? [h('dt', t('result')), h('dd', `${r.result} ${r.winner}`)] : null);
      this.evals.length = 0;
      this.drawGraph();
      this.refresh();
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  /// A record read by the server, or offline by the page (SFEN, USI) or the browser's engine.
  async parseRecord(text: string, name: string): Promise<ParsedRecord> {
    try {
      return await post<ParsedRecord>('record/parse', { text, name });
    } catch (e) {
      return offlineRecord(e, text, name);
    }
  }

  async save(): Promise<void> {
    const format = this.saveFormat.value;
    try {
      // The server writes the file as desktop programs expect it (.kif and .ki2 in Shift_JIS).
      const file = await postForFile('record/write', { sfen: this.startSfen, moves: this.movesTo(this.line.length), format, headers: {} });
      const a = h('a', { href: URL.createObjectURL(file), download: `hisha.${format === 'western' ? 'txt' : format}` });
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      toast(String((e as Error).message), 'error');
    }
  }

  // --- the engine

  /// The browser's engine when the server ships it (wasm), else the server's (logged-in players).
  async startEngine(): Promise<void> {
    if (await browserEngineAvailable()) return this.startBrowserEngine();
    this.engineKind = 'server';
    if (!app.live || !myName()) {
      clear(this.engineOut, h('p.meta', t('login') + ' — ' + t('analysis')));
      return;
    }
    this.lines.clear();
    app.live.fire({ type: 'analyze', sfen: this.startSfen, moves: this.movesTo(this.cursor), multipv: Number(this.multipv.value), movetime_ms: 30000, tag: `pos-${this.cursor}` });
    clear(this.engineOut, h('p.meta', t('engineThinking')));
  }

  /// The browser's engine on the position shown; its scores turned to Black's side, as the server's.
  startBrowserEngine(): void {
    const cursor = this.cursor;
    const blackToMove = (splitSfen(this.startSfen).turn === 'black') === (cursor % 2 === 0);
    this.lines.clear();
    this.engineKind = 'browser';
    this.graphRun = undefined; // (a graph being drawn in the browser gives way)
    clear(this.engineOut, h('p.meta', t('engineThinking'), ' ', this.engineLabel()));
    const sign = blackToMove ? 1 : -1;
    const toLine = (l: WorkerLine): Line => ({
      cp: l.cp === undefined ? undefined : sign * l.cp,
      mate: l.mate === undefined ? undefined : sign * l.mate,
      depth: l.depth,
      pv: l.usi.map((usi, i) => ({ usi, western: l.western[i] ?? usi, ja: l.ja[i] ?? usi, kif: l.ja[i] ?? usi })),
    });
    browserEngine.analyze(this.startSfen, this.movesTo(cursor), Number(this.multipv.value), {
      onLine: (l) => {
        if (!this.analyzing || this.cursor !== cursor || this.engineKind !== 'browser') return;
        this.lines.set(l.multipv, toLine(l));
        this.renderLines();
      },
      onDone: (best) => {
        if (!best && this.analyzing && this.cursor === cursor && !this.lines.size) clear(this.engineOut, h('p.meta', t('noMove'), ' ', this.engineLabel()));
      },
    });
    void browserEngine.ready?.then(() => this.engineKind === 'browser' && this.lines.size && this.renderLines(), () => {
      // The worker could not start (an old browser, a broken file): the server's engine instead.
      if (this.analyzing && this.engineKind === 'browser') void this.startEngine();
    });
  }

  /// Which engine answers: the browser's (with its evaluation once loaded) or the server's.
  engineLabel(): HTMLElement {
    const kind = this.engineKind === 'browser' ? t('browserEngine') + (browserEngine.evaluation ? ` (${browserEngine.evaluation})` : '') : t('serverEngine');
    return h('span.engine-kind', { 'data-engine': this.engineKind ?? '' }, kind);
  }

  stopEngine(): void {
    this.analyzing = false;
    browserEngine.stop();
    app.live?.fire({ type: 'analyze_stop' });
    this.board.setArrows([]);
    this.analyzeButton.textContent = t('analyze');
  }

  toggleAnalysis(): void {
    if (this.analyzing) return this.stopEngine();
    this.analyzing = true;
    this.analyzeButton.textContent = t('stop');
    this.startEngine();
  }

  renderLines(): void {
    const sorted = [...this.lines.entries()].sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const ja = notationPref() === 'ja';
    const best = sorted[0];
    if (best) {
      const v = scoreValue(best);
      (this.evalBar.firstChild as HTMLElement).style.height = `${50 + (50 * v) / 3000 * 1.5}%`;
      this.evalBar.title = scoreText(best);
    }
    clear(this.engineOut,
      best ? h('div.eval-line', h('b.score', { 'data-score': scoreText(best) }, scoreText(best)), h('span.meta', ` ${t('depth')} ${best.depth} · `, this.engineLabel())) : null,
      h('ol.pv', sorted.map((l) => h('li', { 'data-usi': l.pv.map((m) => m.usi).join(' ') }, h('b', scoreText(l)), ' ', l.pv.slice(0, 12).map((m) => (ja ? m.ja : m.western)).join(' ')))));
    this.board.setArrows(sorted.map((l) => l.pv.slice(0, 1).map((m) => m.usi)));
  }

  /// The engine's messages: lines of the position shown, or the graph's evaluations one ply at a time.
  onLive(e: LiveEvent): void {
    if (e.type === 'error' && typeof e.tag === 'string' && (e.tag.startsWith('pos-') || e.tag.startsWith('graph-'))) {
      this.graphRun = undefined;
      clear(this.engineOut, h('p.error', e.message));
      return;
    }
    const run = this.graphRun;
    if (e.type === 'analysis') {
      if (this.engineKind === 'browser' && e.tag === `pos-${this.cursor}`) return;
      const l: Line = { cp: e.cp, mate: e.mate, depth: e.depth, pv: e.pv };
      if (run && e.tag === `graph-${run.ply}`) {
        if (e.multipv === 1) run.last = l;
        return;
      }
      if (e.tag !== `pos-${this.cursor}` || !this.analyzing) return;
      this.lines.set(e.multipv, l);
      this.renderLines();
    } else if (e.type === 'analysis_done' && run && e.tag === `graph-${run.ply}`) {
      // No line and no move: the side to move is checkmated (or has no move at all).
      const blackToMove = (splitSfen(this.startSfen).turn === 'black') === (run.ply % 2 === 0);
      this.evals[run.ply] = run.last ? scoreValue(run.last) : !e.best ? (blackToMove ? -3000 : 3000) : undefined;
      this.drawGraph();
      const next = run.ply + 1;
      if (next <= this.line.length) {
        this.graphRun = { ply: next };
        app.live?.fire({ type: 'analyze', sfen: this.startSfen, moves: this.movesTo(next), multipv: 1, movetime_ms: 300, tag: `graph-${next}` });
      } else {
        this.graphRun = undefined;
        if (this.analyzing) this.startEngine();
      }
    }
  }

  async graphGame(): Promise<void> {
    if (await browserEngineAvailable()) return this.graphInBrowser();
    if (!app.live) return;
    this.evals.length = 0;
    this.graphRun = { ply: 0 };
    app.live.fire({ type: 'analyze', sfen: this.startSfen, moves: [], multipv: 1, movetime_ms: 300, tag: 'graph-0' });
  }

  /// The graph from the browser's engine: each position of the line for 300 ms, one after another.
  async graphInBrowser(): Promise<void> {
    this.evals.length = 0;
    const run: { ply: number; last?: Line } = { ply: 0 };
    this.graphRun = run;
    for (let ply = 0; ply <= this.line.length && this.graphRun === run; ply++) {
      run.ply = ply;
      const sign = (splitSfen(this.startSfen).turn === 'black') === (ply % 2 === 0) ? 1 : -1;
      const r = await new Promise<{ last?: WorkerLine; best: string }>((res) => {
        let last: WorkerLine | undefined;
        browserEngine.analyze(this.startSfen, this.movesTo(ply), 1, { onLine: (l) => (last = l), onDone: (best) => res({ last, best }) }, 300);
      });
      if (this.graphRun !== run) return;
      const l = r.last;
      // No line and no move: the side to move is checkmated (or has no move at all).
      this.evals[ply] = l ? scoreValue({ cp: l.cp === undefined ? undefined : sign * l.cp, mate: l.mate === undefined ? undefined : sign * l.mate }) : !r.best ? -3000 * sign : undefined;
      this.drawGraph();
    }
    if (this.graphRun !== run) return;
    this.graphRun = undefined;
    if (this.analyzing) void this.startEngine();
  }

  drawGraph(): void {
    const graph = this.graph;
    graph.hidden = !this.evals.some((v) => v !== undefined);
    const n = Math.max(this.line.length, 1);
    const W = 300, H = 80;
    const pts = this.evals.map((v, i) => (v === undefined ? null : `${(i / n) * W},${H / 2 - (v / 3000) * (H / 2)}`)).filter(Boolean).join(' ');
    graph.innerHTML = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${t('graph')}"><rect width="${W}" height="${H / 2}" class="g-black"/><rect y="${H / 2}" width="${W}" height="${H / 2}" class="g-white"/><line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" class="g-axis"/><polyline points="${pts}" class="g-line"/></svg>`;
    graph.onclick = (e) => {
      const r = graph.getBoundingClientRect();
      this.go(Math.round(((e.clientX - r.left) / r.width) * n));
    };
  }

  // --- tsume

  async solve(): Promise<void> {
    const sfen = this.editing ? this.editorSfen() : this.info?.sfen || this.startSfen;
    if (await browserEngineAvailable()) return this.solveInBrowser(sfen);
    if (!myName()) {  // the solver serves logged-in players only
      clear(this.tsumeOut, h('p.meta', t('login') + ' — ' + t('tsume')));
      return;
    }
    clear(this.tsumeOut, t('solving'));
    try {
      const r = await call<TsumeAnswer>('POST', 'tsume', { sfen, convention: 'tsume', time_limit_s: 20 });
      this.showTsume(sfen, r, t('serverEngine'));
    } catch (e) {
      clear(this.tsumeOut, h('span.error', String((e as Error).message)));
    }
  }

  /// The solver in the browser's engine (no login needed).
  async solveInBrowser(sfen: string): Promise<void> {
    clear(this.tsumeOut, t('solving'), ' ', h('span.engine-kind', { 'data-engine': 'browser' }, t('browserEngine')));
    const r = await browserEngine.solve(sfen, 20000);
    const moves = r.usi.map((usi, i) => ({ usi, western: r.western[i] ?? usi, ja: r.ja[i] ?? usi, kif: r.ja[i] ?? usi }));
    this.showTsume(sfen, { status: r.status, length: r.length, exact: r.exact, moves, nodes: r.nodes, time_ms: r.timeMs, error: r.error }, t('browserEngine'));
  }

  showTsume(sfen: string, r: TsumeAnswer, engine: string): void {
    const by = h('span.engine-kind', { 'data-engine': engine === t('browserEngine') ? 'browser' : 'server' }, ` · ${engine}`);
    if (r.status !== 'mate')
      return void clear(this.tsumeOut, h('b.tsume-result', r.status === 'nomate' ? t('noMate') : r.status === 'timeout' ? t('timeout') : `${t('error')}: ${r.error}`), by);
    const ja = notationPref() === 'ja';
    clear(this.tsumeOut,
      h('b.tsume-result', { 'data-length': r.length }, `${r.length}${t('mateIn') === '手詰' ? '手詰' : ''}`.replace(/^(\d+)$/, `${t('mateIn')} $1`)),
      h('span.meta', ` ${r.nodes} nodes, ${r.time_ms} ms${r.exact ? '' : ' (not proven shortest)'}`), by,
      h('p.tsume-line', r.moves.map((m) => (ja ? m.ja : m.western)).join(' ')),
      h('button.small', { name: 'show-solution', onclick: () => {
        this.setEditing(false);
        this.startSfen = sfen;
        this.line = r.moves;
        this.go(0);
      } }, t('showSolution')),
      explainPanel(sfen));
  }

  // --- the editor

  editorSfen(): string {
    return `${this.board.ground.getBoardSfen()} ${this.sideSelect.value} ${this.board.ground.getHandsSfen() || '-'} 1`;
  }

  renderPalette(): void {
    this.sfenBox.value = this.editorSfen();
    const same = (p: Piece) => this.spare !== 'trash' && this.spare?.role === p.role && this.spare?.color === p.color;
    const pieceButton = (p: Piece) =>
      h('button.spare', {
        class: same(p) ? 'selected' : undefined,
        'data-piece': `${p.color} ${p.role}`, title: `${p.color} ${p.role}`, 'aria-label': `${p.color} ${p.role}`,
        onclick: () => { this.spare = same(p) ? undefined : p; this.renderPalette(); },
      }, Object.assign(document.createElement('piece'), { className: `${p.color} ${p.role}` }));
    clear(this.palette,
      ['sente', 'gote'].map((color) => h('div.palette-row', [...ROLES, 'tokin', 'horse', 'dragon'].map((role) => pieceButton({ role, color: color as 'sente' | 'gote' })))),
      h('button.spare', { name: 'trash', class: this.spare === 'trash' ? 'selected' : undefined, onclick: () => { this.spare = this.spare === 'trash' ? undefined : 'trash'; this.renderPalette(); } }, t('remove')));
    this.renderHands();
  }

  /// The pieces in each hand, each kind with − and + buttons.
  renderHands(): void {
    const counts = splitSfen(this.editorSfen()).hands;
    const ground = this.board.ground;
    clear(this.handsEdit, ['sente', 'gote'].map((color) =>
      h('div.hand-row', h('span', color === 'sente' ? '☗ ' : '☖ '), HAND_ROLES.map((role) => {
        const letter = LETTER_OF[role];
        const m = counts.match(new RegExp(`(\\d*)${color === 'sente' ? letter : letter.toLowerCase()}`));
        const n = m ? Number(m[1] || 1) : 0;
        const piece = { role, color: color as 'sente' | 'gote' };
        return h('span.hand-count', h('button.small', { 'data-hand': `${color} ${role} -`, onclick: () => { if (n) ground.removeFromHand(piece); this.renderPalette(); } }, '−'),
          h('span', ` ${letter}${n} `), h('button.small', { 'data-hand': `${color} ${role} +`, onclick: () => { ground.addToHand(piece); this.renderPalette(); } }, '+'));
      }))));
  }

  setEditing(on: boolean): void {
    this.editing = on;
    this.el.classList.toggle('editing', on);
    this.board.ground.set({
      activeColor: on ? 'both' : undefined,
      movable: { free: on },
      droppable: { free: on },
      draggable: { deleteOnDropOff: on },
    });
    if (on) {
      const p = splitSfen(this.info?.sfen || this.startSfen);
      this.sideSelect.value = p.turn === 'white' ? 'w' : 'b';
      this.board.ground.set({ lastDests: [], checks: false });
      this.renderPalette();
    }
  }

  editorChanged(): void {
    if (this.editing) this.sfenBox.value = this.editorSfen();
  }

  /// A click on a square while editing puts the chosen piece there (promoting or demoting a piece
  /// of that kind already there), or removes what is there.
  editorPut(key: Key): void {
    const spare = this.spare;
    if (!this.editing || !spare) return;
    const ground = this.board.ground;
    const cur = ground.state.pieces.get(key);
    if (spare === 'trash') ground.setPieces(new Map([[key, undefined]]));
    else if (cur && cur.color === spare.color && (PROMOTABLE[cur.role] === spare.role || UNPROMOTED[cur.role] === spare.role)) ground.setPieces(new Map([[key, spare]]));
    else ground.setPieces(new Map([[key, { ...spare }]]));
    ground.selectSquare(null);
    this.sfenBox.value = this.editorSfen();
  }

  editorPanel(): HTMLElement {
    const ground = this.board.ground;
    return h('div.card.editor-panel',
      h('h3', t('editor')),
      h('p.meta', t('editHint')),
      this.palette,
      h('h4', t('hands')), this.handsEdit,
      h('label', t('sideToMove'), ' ', this.sideSelect),
      h('div.row',
        h('button', { name: 'startpos', onclick: () => { ground.set({ sfen: { board: splitSfen(START).board, hands: '' } }); this.renderPalette(); } }, t('startPos')),
        h('button', { name: 'clear', onclick: () => { ground.set({ sfen: { board: '9/9/9/9/9/9/9/9/9', hands: '' } }); this.renderPalette(); } }, t('clear'))),
      h('div.row',
        h('button.primary', { name: 'use-position', onclick: () => this.usePosition(this.editorSfen()) }, t('usePosition')),
        h('button', { name: 'solve', onclick: () => this.solve() }, t('solveTsume'))));
  }

  // --- the page

  /// Keys: arrows, Home and End go through the moves, f flips the board.
  key(e: KeyboardEvent): void {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (e.key === 'ArrowLeft') this.go(this.cursor - 1);
    else if (e.key === 'ArrowRight') this.go(this.cursor + 1);
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.line.length);
    else if (e.key === 'f') this.board.flip();
  }

  layout(): HTMLElement {
    const editToggle = h('button', { name: 'edit', onclick: () => (this.editing ? this.usePosition(this.editorSfen()) : this.setEditing(true)) }, '✎ ', t('editor'));
    const nav = h('div.nav-buttons',
      h('button', { name: 'first', onclick: () => this.go(0), 'aria-label': t('first') }, '|◀'),
      h('button', { name: 'prev', onclick: () => this.go(this.cursor - 1), 'aria-label': t('prev') }, '◀'),
      h('button', { name: 'next', onclick: () => this.go(this.cursor + 1), 'aria-label': t('next') }, '▶'),
      h('button', { name: 'last', onclick: () => this.go(this.line.length), 'aria-label': t('last') }, '▶|'),
      editToggle);
    const tsumeCard = h('div.card', h('h3', t('tsume')), h('button', { name: 'solve-current', onclick: () => this.solve() }, t('solveTsume')), this.tsumeOut);
    return h('div.analysis-page',
      h('section.board-col', h('div.board-with-bar', this.evalBar, this.boardEl), nav, h('label.sfen-row', 'SFEN ', this.sfenBox)),
      h('section.side-col',
        this.editorPanel(),
        tsumeCard,
        h('div.card', h('h3', t('evaluation')), h('div.row', this.analyzeButton, h('label', t('multipv'), ' ', this.multipv), h('button', { name: 'graph', onclick: () => this.graphGame() }, t('analyzeGame'))), this.engineOut, this.graph),
        h('div.card', h('h3', t('moves')), this.moveList, this.comments, this.keyInput),
        h('div.card', h('h3', t('records')), h('p.meta', t('loadRecord')), this.recordText, h('div.row', this.fileInput, h('button.primary', { name: 'load', onclick: () => this.loadRecord() }, t('load'))),
          h('div.row', h('label', t('saveAs'), ' ', this.saveFormat), h('button', { name: 'save', onclick: () => this.save() }, t('download'))), this.headers),
        h('div.card', boardSettings(this.board, () => this.renderMoves()))));
  }

  /// The first position: a game of the server's (#/analysis/game-N) at its last move, else the start.
  async open(): Promise<void> {
    if (this.arg.startsWith('game-')) {
      try {
        const g = await get<Game>(`games/${Number(this.arg.slice(5))}`);
        this.startSfen = g.start_sfen || START;
        const usis = (g.moves || []).map((m) => m.usi).filter(isUsi);
        const p = await post<PositionInfo>('position', { sfen: this.startSfen, moves: usis });
        this.line = p.moves;
        this.cursor = this.line.length;
      } catch (e) {
        toast(String((e as Error).message), 'error');
      }
    }
    await this.refresh();
    if (this.editing) this.setEditing(true);
    this.drawGraph();
  }

  view(): View {
    const offLive = app.live?.on((e) => this.onLive(e));
    const keys = (e: KeyboardEvent) => this.key(e);
    document.addEventListener('keydown', keys);
    this.el = this.layout();
    void this.open();
    this.board.setOrientation(colorOf('black'));
    return {
      el: this.el,
      dispose: () => {
        if (this.analyzing || this.graphRun) app.live?.fire({ type: 'analyze_stop' });
        browserEngine.stop();
        offLive?.();
        document.removeEventListener('keydown', keys);
        this.board.ground.destroy();
      },
    };
  }
}

export function analysisView(arg: string): View {
  return new AnalysisPage(arg).view();
}
