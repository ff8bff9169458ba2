// The browser's engine in a Web Worker: Hisha's search and tsume solver compiled to WebAssembly
// (wasm/, `make wasm`: /wasm/hisha.js, hisha.wasm and the network hisha.nnue), loaded when the
// first request comes. The wasm build has one thread and searches synchronously, so an analysis
// runs depth after depth (`go depth d`, its table kept), and the worker reads its messages only
// between depths. A stop is therefore the page's: it ends this worker (terminate) and starts
// another, which the page hands the compiled module and the network this one reported when ready
// ('init', first message), so the new one answers at once without fetching or compiling again.
// (A stop flag the search polls would need memory shared with the page: SharedArrayBuffer, which
// browsers give only to cross-origin isolated pages, COOP/COEP, and that the server's pages are
// not: the embeddable board is framed by other origins.) Messages: see wasm-engine.ts.

interface HishaModule {
  ccall(name: string, ret: null, types: string[], args: unknown[]): void;
  FS: { writeFile(path: string, data: Uint8Array): void };
}
type Factory = (opts: Record<string, unknown>) => Promise<HishaModule>;

export interface WorkerLine { multipv: number; depth: number; cp?: number; mate?: number; nodes: number; nps: number; usi: string[]; western: string[]; ja: string[] }
/// A position as the server's /api/position tells it (api.ts PositionInfo).
export interface BoardInfo { sfen: string; turn: 'black' | 'white'; check: boolean; legal: string[]; over: string; moves: { usi: string; western: string; ja: string; kif: string }[] }
export type ToWorker =
  | { type: 'analyze'; id: number; sfen: string; moves: string[]; multipv: number; maxDepth: number; maxMs: number }
  | { type: 'stop'; id: number }
  | { type: 'tsume'; id: number; sfen: string; timeMs: number }
  | { type: 'board'; id: number; sfen: string; moves: string[] }
  | { type: 'record'; id: number; text: string; name: string }
  | { type: 'init'; module: WebAssembly.Module; nnue?: ArrayBuffer };
/// A record read by the engine (the server's /api/record/parse when offline).
export interface RecordInfo { start: string; headers: { key: string; value: string }[]; comments: Map<number, string[]>; result: string; winner: string; board: BoardInfo }
export type FromWorker =
  | { type: 'ready'; evaluation: string; module?: WebAssembly.Module; nnue?: ArrayBuffer }
  | { type: 'failed'; error: string }
  | { type: 'line'; id: number; line: WorkerLine }
  | { type: 'done'; id: number; best: string; depth: number }
  | { type: 'board'; id: number; info?: BoardInfo; error?: string }
  | { type: 'record'; id: number; info?: RecordInfo; error?: string }
  | { type: 'tsume'; id: number; status: string; length: number; usi: string[]; western: string[]; ja: string[]; nodes: number; timeMs: number; exact: boolean; error: string };

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
const base = new URL('/wasm/', self.location.href).href;

let engine: HishaModule | undefined;
let loading: Promise<HishaModule> | undefined;
let sink: (line: string) => void = () => {};
let latest = 0; // the id of the newest request: an older analysis stops at its next depth

function run(command: string): void {
  engine!.ccall('hisha_command', null, ['string'], [command]);
}

let given: Extract<ToWorker, { type: 'init' }> | undefined; // the page's cached module and network

/// The module compiled here, or the one the page handed over (a worker after a stop).
async function compile(): Promise<WebAssembly.Module> {
  if (given) return given.module;
  const r = await fetch(base + 'hisha.wasm');
  if (!r.ok) throw new Error(`hisha.wasm: HTTP ${r.status}`);
  return WebAssembly.compile(await r.arrayBuffer());
}

async function network(): Promise<ArrayBuffer | undefined> {
  if (given?.nnue) return given.nnue;
  try {
    const r = await fetch(base + 'hisha.nnue');
    return r.ok ? await r.arrayBuffer() : undefined;
  } catch {
    return undefined; // no network file: the Classic evaluation
  }
}

async function load(): Promise<HishaModule> {
  const { default: create } = (await import(/* @vite-ignore */ base + 'hisha.js')) as { default: Factory };
  const module = await compile();
  const instantiateWasm = (imports: WebAssembly.Imports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) => {
    void WebAssembly.instantiate(module, imports).then((i) => done(i, module));
    return {};
  };
  const mod = await create({ locateFile: (f: string) => base + f, instantiateWasm, print: (l: string) => sink(l), printErr: () => {} });
  engine = mod;
  mod.ccall('hisha_init', null, [], []);
  let evaluation = 'Classic';
  const nnue = await network();
  if (nnue) {
    mod.FS.writeFile('/hisha.nnue', new Uint8Array(nnue));
    const errors: string[] = [];
    sink = (l) => l.startsWith('info string error') && errors.push(l);
    run('setoption name EvalFile value /hisha.nnue');
    run('setoption name Evaluation value NNUE');
    if (!errors.length) evaluation = 'NNUE';
  }
  run('notation on');
  // The first worker hands the page its module and network for the next (a stop ends this one).
  try {
    post(given ? { type: 'ready', evaluation } : { type: 'ready', evaluation, module, nnue });
  } catch {
    post({ type: 'ready', evaluation }); // (a browser that cannot send a module)
  }
  return mod;
}

/// An info line and the western and Japanese lines that follow it, as one line of the page.
function lineReader(onLine: (l: WorkerLine) => void) {
  let cur: WorkerLine | undefined;
  return (text: string) => {
    const w = text.split(' ');
    if (w[0] === 'info' && w[1] === 'depth') {
      const at = (k: string) => w.indexOf(k);
      const num = (k: string) => (at(k) >= 0 ? Number(w[at(k) + 1]) : 0);
      const pv = at('pv') >= 0 ? w.slice(at('pv') + 1) : [];
      const score = at('score');
      cur = { multipv: num('multipv') || 1, depth: num('depth'), nodes: num('nodes'), nps: num('nps'), usi: pv, western: [], ja: [] };
      if (w[score + 1] === 'mate') cur.mate = Number(w[score + 2]);
      else cur.cp = Number(w[score + 2]);
      if (at('lowerbound') >= 0 || at('upperbound') >= 0) cur = undefined; // a bound, not a line
    } else if (cur && text.startsWith('info string western ')) {
      cur.western = w.slice(3);
    } else if (cur && text.startsWith('info string ja ')) {
      cur.ja = w.slice(3);
      onLine(cur);
      cur = undefined;
    }
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

async function analyze(m: Extract<ToWorker, { type: 'analyze' }>): Promise<void> {
  run(`position sfen ${m.sfen}${m.moves.length ? ' moves ' + m.moves.join(' ') : ''}`);
  const started = performance.now();
  let best = '', reached = 0;
  for (let d = 1; d <= m.maxDepth; d++) {
    const lines: WorkerLine[] = [];
    const read = lineReader((l) => l.depth === d && lines.push(l));
    let bestmove = '';
    sink = (text) => (text.startsWith('bestmove ') ? (bestmove = text.slice(9)) : read(text));
    run(`go depth ${d} multipv ${m.multipv}`);
    // A depth's final lines, one per multipv (the last of each), once the depth is complete.
    const last = new Map<number, WorkerLine>();
    for (const l of lines) last.set(l.multipv, l);
    for (const l of last.values()) post({ type: 'line', id: m.id, line: l });
    if (!last.size || bestmove === 'resign') break; // no legal move
    best = bestmove;
    reached = d;
    await tick(); // a stop or a newer request arrives here
    if (latest !== m.id || performance.now() - started > m.maxMs || last.get(1)?.mate !== undefined) break;
  }
  post({ type: 'done', id: m.id, best, depth: reached });
}

function tsume(m: Extract<ToWorker, { type: 'tsume' }>): void {
  const r: Extract<FromWorker, { type: 'tsume' }> = { type: 'tsume', id: m.id, status: 'error', length: 0, usi: [], western: [], ja: [], nodes: 0, timeMs: 0, exact: false, error: '' };
  sink = (text) => {
    const w = text.split(' ');
    if (text.startsWith('info string tsume ')) {
      r.nodes = Number(w[4]);
      r.timeMs = Number(w[6]);
      r.exact = w[8] === '1';
    } else if (text.startsWith('info string western ')) r.western = w.slice(3);
    else if (text.startsWith('info string ja ')) r.ja = w.slice(3);
    else if (text.startsWith('info string error: ')) r.error = text.slice(19);
    else if (w[0] === 'tsume') {
      r.status = w[1];
      if (w[1] === 'error') r.error = w.slice(2).join(' ');
      if (w[1] === 'mate') {
        r.length = Number(w[2]);
        r.usi = w.slice(3).filter((x) => x !== 'unique' && x !== 'yozume');
        r.usi = r.usi.slice(0, r.length);
      }
    }
  };
  run(`tsume time_ms ${Math.max(1, Math.round(m.timeMs))} convention tsume sfen ${m.sfen}`);
  if (r.status !== 'mate') r.western = r.ja = [];
  post(r);
}

/// The board command's answer (the position set: its SFEN, check, legal moves, the moves' texts).
function readBoard(): { info: BoardInfo; error: string } {
  const info: BoardInfo = { sfen: '', turn: 'black', check: false, legal: [], over: '', moves: [] };
  let error = '';
  sink = (text) => {
    const w = text.split(' ');
    if (text.startsWith('info string error: ')) error = text.slice(19);
    else if (w[1] === 'sfen') info.sfen = w.slice(2).join(' ');
    else if (w[1] === 'check') info.check = w[2] === '1';
    else if (w[1] === 'legal') info.legal = w.slice(2);
    else if (w[1] === 'move') info.moves.push({ usi: w[2], western: w[3], ja: w[4], kif: w.slice(5).join(' ') });
  };
  run('board');
  info.turn = info.sfen.split(' ')[1] === 'w' ? 'white' : 'black';
  if (!info.legal.length) info.over = info.check ? 'checkmate' : 'no_moves';
  return { info, error };
}

/// The position after `moves` from `sfen`, with its legal moves and the moves' texts: the page's
/// answer when the server cannot be reached.
function board(m: Extract<ToWorker, { type: 'board' }>): void {
  let error = '';
  sink = (text) => text.startsWith('info string error: ') && (error = text.slice(19));
  run(`position sfen ${m.sfen}${m.moves.length ? ' moves ' + m.moves.join(' ') : ''}`);
  const b = error ? undefined : readBoard();
  error ||= b?.error ?? '';
  post(error || !b ? { type: 'board', id: m.id, error } : { type: 'board', id: m.id, info: b.info });
}

/// A record pasted or chosen (any format the engine reads), as /api/record/parse tells it.
function record(m: Extract<ToWorker, { type: 'record' }>): void {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(m.name)?.[1] ?? 'txt';
  const path = `/record.${ext.toLowerCase()}`;
  engine!.FS.writeFile(path, new TextEncoder().encode(m.text));
  const r: Omit<RecordInfo, 'board'> = { start: '', headers: [], comments: new Map(), result: '', winner: '' };
  let error = '';
  sink = (text) => {
    const w = text.split(' ');
    if (text.startsWith('info string error: ')) error = text.slice(19);
    else if (w[1] === 'start') r.start = w.slice(2).join(' ');
    else if (w[1] === 'header') {
      const [key, value = ''] = w.slice(2).join(' ').split('\t');
      r.headers.push({ key, value });
    } else if (w[1] === 'comment') r.comments.set(Number(w[2]), [...(r.comments.get(Number(w[2])) ?? []), w.slice(3).join(' ')]);
    else if (w[1] === 'result') [r.winner, r.result] = [w[2] === 'none' ? '' : w[2], w.slice(3).join(' ')];
  };
  run(`record ${path}`);
  const b = error ? undefined : readBoard();
  error ||= b?.error ?? '';
  post(error || !b ? { type: 'record', id: m.id, error } : { type: 'record', id: m.id, info: { ...r, board: b.info } });
}

// Requests run one at a time, in order.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'stop') {
    if (latest === m.id) latest = -1;
    return;
  }
  if (m.type === 'init') {
    given = m; // (the first message of a worker the page started after a stop)
    return;
  }
  if (m.type === 'analyze') latest = m.id;
  queue = queue.then(async () => {
    try {
      if (!loading) loading = load();
      await loading;
      if (m.type === 'analyze') {
        if (latest === m.id) await analyze(m);
        else post({ type: 'done', id: m.id, best: '', depth: 0 });
      } else if (m.type === 'board') board(m);
      else if (m.type === 'record') record(m);
      else tsume(m);
    } catch (err) {
      post({ type: 'failed', error: String(err) });
    }
  });
};
