// The page's side of the browser's engine (engine-worker.ts): whether the server ships it
// (/wasm/hisha.wasm, asked only when analysis or the solver starts, so the first page load does
// not grow), one worker for the page, analyses and tsume problems as calls with callbacks. A
// worker that does not answer a stop in time (a deep iteration) is ended and a new one started.
import type { BoardInfo, FromWorker, ToWorker, WorkerLine } from './engine-worker';

export type { BoardInfo, WorkerLine };
export interface BrowserTsume { status: string; length: number; usi: string[]; western: string[]; ja: string[]; nodes: number; timeMs: number; exact: boolean; error: string }

let available: Promise<boolean> | undefined;
/// Whether this server ships the browser's engine (asked once); false when the page says not to
/// use it (localStorage hisha.engine = 'server').
export function browserEngineAvailable(): Promise<boolean> {
  if (localStorage.getItem('hisha.engine') === 'server' || typeof Worker === 'undefined' || typeof WebAssembly === 'undefined')
    return Promise.resolve(false);
  // Offline, the service worker's cache may hold it.
  available ??= fetch('/wasm/hisha.wasm', { method: 'HEAD' }).then((r) => r.ok,
    async () => typeof caches !== 'undefined' && !!(await caches.match('/wasm/hisha.wasm').catch(() => undefined)));
  return available;
}

interface Analysis { onLine: (l: WorkerLine) => void; onDone: (best: string, depth: number) => void }

class BrowserEngine {
  worker: Worker | undefined;
  evaluation = '';
  next = 1;
  analysis: { id: number; cb: Analysis } | undefined;
  readonly solving = new Map<number, (r: BrowserTsume) => void>();
  readonly boards = new Map<number, { res: (b: BoardInfo) => void; rej: (e: Error) => void }>();
  ready: Promise<string> | undefined;
  private readyResolve: ((ev: string) => void) | undefined;
  private readyReject: ((e: Error) => void) | undefined;

  start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' });
    this.ready = new Promise((res, rej) => ((this.readyResolve = res), (this.readyReject = rej)));
    this.ready.catch(() => {});
    w.onmessage = (e: MessageEvent<FromWorker>) => this.receive(e.data);
    w.onerror = (e) => this.fail(e.message || 'the engine worker failed');
    this.worker = w;
    return w;
  }

  receive(m: FromWorker): void {
    if (m.type === 'ready') {
      this.evaluation = m.evaluation;
      this.readyResolve?.(m.evaluation);
    } else if (m.type === 'failed') this.fail(m.error);
    else if (m.type === 'line' && this.analysis?.id === m.id) this.analysis.cb.onLine(m.line);
    else if (m.type === 'done' && this.analysis?.id === m.id) {
      const cb = this.analysis.cb;
      this.analysis = undefined;
      cb.onDone(m.best, m.depth);
    } else if (m.type === 'board') {
      const b = this.boards.get(m.id);
      this.boards.delete(m.id);
      if (m.info) b?.res(m.info);
      else b?.rej(new Error(m.error || 'bad position'));
    } else if (m.type === 'tsume') {
      this.solving.get(m.id)?.(m);
      this.solving.delete(m.id);
    }
  }

  /// The worker failed: this page uses the server's engine from now on.
  fail(error: string): void {
    available = Promise.resolve(false);
    this.readyReject?.(new Error(error));
    this.restart();
    for (const done of this.solving.values()) done({ status: 'error', length: 0, usi: [], western: [], ja: [], nodes: 0, timeMs: 0, exact: false, error });
    this.solving.clear();
    for (const b of this.boards.values()) b.rej(new Error(error));
    this.boards.clear();
  }

  restart(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.analysis = undefined;
  }

  send(m: ToWorker): void {
    this.start().postMessage(m);
  }

  analyze(sfen: string, moves: string[], multipv: number, cb: Analysis, maxMs = 60000): void {
    this.stop();
    const id = this.next++;
    this.analysis = { id, cb };
    this.send({ type: 'analyze', id, sfen, moves, multipv, maxDepth: 64, maxMs });
  }

  /// Stops the analysis; a worker still busy after 1.5 s (inside one deep iteration) is replaced.
  stop(): void {
    const a = this.analysis;
    if (!a || !this.worker) return;
    this.analysis = undefined;
    this.send({ type: 'stop', id: a.id });
    const w = this.worker;
    const idle = new Promise<void>((res) => w.addEventListener('message', (e: MessageEvent<FromWorker>) => e.data.type === 'done' && e.data.id === a.id && res()));
    const late = setTimeout(() => this.worker === w && !this.solving.size && !this.boards.size && this.restart(), 1500);
    void idle.then(() => clearTimeout(late));
  }

  /// The position after `moves` (legal moves, move texts), as /api/position answers it.
  board(sfen: string, moves: string[]): Promise<BoardInfo> {
    const id = this.next++;
    return new Promise((res, rej) => {
      this.boards.set(id, { res, rej });
      this.send({ type: 'board', id, sfen, moves });
    });
  }

  solve(sfen: string, timeMs: number): Promise<BrowserTsume> {
    const id = this.next++;
    return new Promise((res) => {
      this.solving.set(id, res);
      this.send({ type: 'tsume', id, sfen, timeMs });
    });
  }
}

export const browserEngine = new BrowserEngine();
