// The page's side of the browser's engine (engine-worker.ts): whether the server ships it
// (/wasm/hisha.wasm, asked only when analysis or the solver starts, so the first page load does
// not grow), one worker for the page, analyses, tsume problems, positions and records as calls
// with callbacks. A stop is immediate: the worker searching is ended (terminate: its search never
// yields to read a message) and a new one started with the compiled module and the network the
// first one handed over, so it answers at once; the lines shown stay those of the last depth the
// search completed, and requests other than the analysis still waiting are sent to the new one.
import type { BoardInfo, FromWorker, RecordInfo, ToWorker, WorkerLine } from './engine-worker';

export type { BoardInfo, RecordInfo, WorkerLine };
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

type Waiting<T> = { res: (v: T) => void; rej: (e: Error) => void; msg: ToWorker };
const TSUME_FAILED = { status: 'error', length: 0, usi: [], western: [], ja: [], nodes: 0, timeMs: 0, exact: false };

class BrowserEngine {
  worker: Worker | undefined;
  loaded = false; // the worker said ready (a worker still loading reads a stop itself)
  evaluation = '';
  next = 1;
  analysis: { id: number; cb: Analysis } | undefined;
  /// The compiled module and the network of the first worker, for the ones after a stop.
  cache: { module: WebAssembly.Module; nnue?: ArrayBuffer } | undefined;
  readonly waiting = new Map<number, Waiting<BoardInfo> | Waiting<RecordInfo> | Waiting<BrowserTsume>>();
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
    this.loaded = false;
    if (this.cache) w.postMessage({ type: 'init', ...this.cache } satisfies ToWorker);
    return w;
  }

  receive(m: FromWorker): void {
    if (m.type === 'ready') {
      this.evaluation = m.evaluation;
      this.loaded = true;
      if (m.module) this.cache ??= { module: m.module, nnue: m.nnue };
      this.readyResolve?.(m.evaluation);
    } else if (m.type === 'failed') this.fail(m.error);
    else if (m.type === 'line' && this.analysis?.id === m.id) this.analysis.cb.onLine(m.line);
    else if (m.type === 'done' && this.analysis?.id === m.id) {
      const cb = this.analysis.cb;
      this.analysis = undefined;
      cb.onDone(m.best, m.depth);
    } else if (m.type === 'board' || m.type === 'record' || m.type === 'tsume') {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.type === 'tsume') (w as Waiting<BrowserTsume>)?.res(m);
      else if (m.info) (w as Waiting<BoardInfo | RecordInfo>)?.res(m.info);
      else w?.rej(new Error(m.error || 'bad position'));
    }
  }

  /// The worker failed: this page uses the server's engine from now on.
  fail(error: string): void {
    available = Promise.resolve(false);
    this.readyReject?.(new Error(error));
    this.restart(false);
    for (const w of this.waiting.values()) {
      if (w.msg.type === 'tsume') (w as Waiting<BrowserTsume>).res({ ...TSUME_FAILED, error });
      else w.rej(new Error(error));
    }
    this.waiting.clear();
  }

  /// Ends the worker; with `resend`, a new one takes the requests still waiting.
  restart(resend: boolean): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.analysis = undefined;
    if (resend && this.waiting.size) for (const w of this.waiting.values()) this.send(w.msg);
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

  /// Stops the analysis at once: a searching worker is ended and a new one started (loaded from
  /// the cached module, so it answers the next request at once); a worker still loading is asked.
  stop(): void {
    const a = this.analysis;
    if (!a || !this.worker) return;
    this.analysis = undefined;
    if (this.loaded) this.restart(true);
    else this.send({ type: 'stop', id: a.id });
  }

  private request<T>(m: ToWorker & { id: number }): Promise<T> {
    return new Promise((res, rej) => {
      this.waiting.set(m.id, { res, rej, msg: m } as unknown as Waiting<BoardInfo>);
      this.send(m);
    });
  }

  /// The position after `moves` (legal moves, move texts), as /api/position answers it.
  board(sfen: string, moves: string[]): Promise<BoardInfo> {
    return this.request({ type: 'board', id: this.next++, sfen, moves });
  }

  /// A record's text (any format), as /api/record/parse answers it.
  record(text: string, name: string): Promise<RecordInfo> {
    return this.request({ type: 'record', id: this.next++, text, name });
  }

  solve(sfen: string, timeMs: number): Promise<BrowserTsume> {
    return this.request({ type: 'tsume', id: this.next++, sfen, timeMs });
  }
}

export const browserEngine = new BrowserEngine();
