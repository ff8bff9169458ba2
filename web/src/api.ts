// The server's JSON API over HTTP and the live event socket (/api/ws), which reconnects by
// itself when the server goes away and comes back.

export interface User {
  name: string; rating: number; deviation: number; wins: number; losses: number; draws: number;
  online: boolean; bot: boolean;
}
export interface Clock { black_ms: number; white_ms: number; turn_started: number; allowed_ms: number; now: number; days_per_move?: number }
export interface GameMove { ply: number; by: string; usi: string; western: string; csa: string; ja?: string; notices: string[] }
export interface Game {
  id: number; black: string; white: string; status: string; time_control: string; origin: string; plies: number;
  to_move: 'black' | 'white'; sfen: string; winner: string; reason: string; clock: Clock;
  moves?: GameMove[]; legal?: string[]; check?: boolean; start_sfen?: string;
}
export interface Challenge {
  id: number; challenger: string; pattern: string; challenger_color: string; first_move: string; comment: string; time_control: string;
}
export interface MoveText { usi: string; western: string; ja: string; kif: string; comments?: string[]; variations?: MoveText[][] }
export interface PositionInfo { sfen: string; turn: 'black' | 'white'; check: boolean; legal: string[]; over: string; moves: MoveText[] }
export interface ParsedRecord {
  start_sfen: string; headers: { key: string; value: string }[]; start_comments: string[]; moves: MoveText[]; result: string; winner: string;
}
export interface TsumeAnswer { status: string; length: number; exact: boolean; moves: MoveText[]; nodes: number; time_ms: number; error: string }

export class ApiError extends Error {}

export function token(): string {
  return localStorage.getItem('hisha.token') || '';
}
export function myName(): string {
  return localStorage.getItem('hisha.user') || '';
}
export function setLogin(tok: string, name: string): void {
  if (tok) {
    localStorage.setItem('hisha.token', tok);
    localStorage.setItem('hisha.user', name);
  } else {
    localStorage.removeItem('hisha.token');
    localStorage.removeItem('hisha.user');
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token()) headers.Authorization = 'Bearer ' + token();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch('/api/' + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('the server cannot be reached');
  }
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try {
      msg = JSON.parse(text).error || text;
    } catch {
      /* plain text */
    }
    throw new ApiError(msg || res.statusText);
  }
  const type = res.headers.get('Content-Type') || '';
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}

export const get = <T>(path: string) => call<T>('GET', path);

/// A POST whose answer is a file: its bytes as they came (a .kif is Shift_JIS, which text()
/// would take for UTF-8).
export async function postForFile(path: string, body: unknown): Promise<Blob> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token()) headers.Authorization = 'Bearer ' + token();
  let res: Response;
  try {
    res = await fetch('/api/' + path, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError('the server cannot be reached');
  }
  if (!res.ok) {
    const text = await res.text();
    let msg = text;
    try {
      msg = JSON.parse(text).error || text;
    } catch {
      /* plain text */
    }
    throw new ApiError(msg || res.statusText);
  }
  return res.blob();
}
export const post = <T>(path: string, body: unknown = {}) => call<T>('POST', path, body);

export type EventHandler = (e: any) => void;

/// The live socket: events to every subscriber, replies to send() by id; reconnects with backoff.
export class Live {
  private ws?: WebSocket;
  private handlers = new Set<EventHandler>();
  private statusHandlers = new Set<(up: boolean) => void>();
  private pending = new Map<number, (r: any) => void>();
  private seq = 0;
  private delay = 250;
  private closed = false;
  up = false;

  constructor() {
    this.open();
  }
  private open(): void {
    if (!token() || this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/ws?token=${encodeURIComponent(token())}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.setUp(true);
    };
    ws.onmessage = (m) => {
      let e: any;
      try {
        e = JSON.parse(m.data);
      } catch {
        return;
      }
      if (e.id !== undefined && this.pending.has(e.id)) {
        this.pending.get(e.id)!(e);
        this.pending.delete(e.id);
        return;
      }
      for (const h of this.handlers) h(e);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.setUp(false);
      if (!this.closed) setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    };
  }
  private setUp(up: boolean): void {
    this.up = up;
    for (const h of this.statusHandlers) h(up);
  }
  on(h: EventHandler): () => void {
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }
  onStatus(h: (up: boolean) => void): () => void {
    this.statusHandlers.add(h);
    return () => this.statusHandlers.delete(h);
  }
  send(msg: Record<string, unknown>): Promise<any> {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ type: 'error', message: 'not connected' });
        return;
      }
      const id = ++this.seq;
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
  /// Sends without waiting for a reply (analysis streams its own messages).
  fire(msg: Record<string, unknown>): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }
  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}
