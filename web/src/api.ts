// The server's JSON API over HTTP and the live event socket (/api/ws), which reconnects by
// itself when the server goes away and comes back.
//
// The session is an HttpOnly cookie the server sets at login ("cookie": true): no script of the
// page ever holds the token, and the browser sends it with every request and the socket's
// handshake. Every request carries the X-Hisha-Request header, which a page of another site
// cannot send: the server refuses a cookie-authenticated change without it (CSRF). The page
// keeps only the name (and whether the account administers the server) to draw itself; the
// server has the last word, and a 401 or a socket closed as "session ended" logs the page out.

export interface User {
  name: string; rating: number; deviation: number; wins: number; losses: number; draws: number;
  online: boolean; bot: boolean; admin?: boolean; guest?: boolean;
}
export interface Clock { black_ms: number; white_ms: number; turn_started: number; allowed_ms: number; now: number; days_per_move?: number; stopped?: boolean }
/// A move of a game; `comment` is what the player sent with it (a CSA engine's Floodgate comment,
/// "* 120 -3334FU +2726FU"), `eval` the score (from Black's side) and line read from it.
export interface GameMove {
  ply: number; by: string; usi: string; western: string; csa: string; ja?: string; notices: string[]; spent_ms?: number;
  comment?: string; eval?: { score: number; pv: string[] };
}
export interface Game {
  id: number; black: string; white: string; status: string; time_control: string; origin: string; plies: number;
  to_move: 'black' | 'white'; sfen: string; winner: string; reason: string; clock: Clock;
  moves?: GameMove[]; legal?: string[]; check?: boolean; start_sfen?: string;
  // vacation.ts (issue 20): adjournment, an open offer, players on vacation (until, epoch ms)
  adjourned?: boolean; adjourned_at?: number; offer?: { by: string; color: 'black' | 'white'; kind: 'adjourn' | 'resume' } | null;
  vacation?: { black?: number; white?: number };
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

/// The name logged in as ('' when logged out), as the page last heard it.
export function myName(): string {
  return localStorage.getItem('hisha.user') || '';
}
export function isAdmin(): boolean {
  return !!myName() && localStorage.getItem('hisha.admin') === '1';
}
export function setLogin(name: string, admin = false): void {
  if (name) {
    localStorage.setItem('hisha.user', name);
    localStorage.setItem('hisha.admin', admin ? '1' : '0');
  } else {
    localStorage.removeItem('hisha.user');
    localStorage.removeItem('hisha.admin');
    localStorage.removeItem('hisha.token'); // (kept by older versions of the page)
  }
}

/// Called when the server says the session is over (expired, logged out elsewhere, revoked).
let sessionEnded: (why: string) => void = () => {};
export function onSessionEnded(f: (why: string) => void): void {
  sessionEnded = f;
}

const HEADERS = { 'X-Hisha-Request': '1' };

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...HEADERS };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch('/api/' + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('the server cannot be reached');
  }
  const text = await res.text();
  if (res.status === 401 && myName() && path !== 'login' && path !== 'register') sessionEnded('');
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
  const headers: Record<string, string> = { ...HEADERS, 'Content-Type': 'application/json' };
  let res: Response;
  try {
    res = await fetch('/api/' + path, { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify(body) });
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
    if (!myName() || this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // The session cookie goes with the handshake: nothing secret in the URL.
    const ws = new WebSocket(`${proto}//${location.host}/api/ws`);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
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
      if (e.type === 'session_ended') {
        this.closed = true;
        sessionEnded(String(e.reason || ''));
        return;
      }
      if (e.id !== undefined && this.pending.has(e.id)) {
        this.pending.get(e.id)!(e);
        this.pending.delete(e.id);
        return;
      }
      for (const h of this.handlers) h(e);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.setUp(false);
      if (ev.code === 4401) this.closed = true; // the server ended the session
      // A handshake refused (the browser does not say why): is the session still good? A 401
      // logs the page out (call()); otherwise the server was away, and we try again.
      if (!opened && !this.closed) void call('GET', 'me').catch(() => {});
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
