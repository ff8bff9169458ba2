// The analysis board without the server (offline, or the server down): positions and records
// from the browser's engine (wasm) where it is shipped and cached, and the page's own reckoning
// (sfen_play.ts) at once before it loads, or alone without it: the board then shows the pieces
// but knows no legal moves. Only when fetch itself failed: an answer of the server, an error
// too, stands.
import { ApiError } from './api';
import type { MoveText, ParsedRecord, PositionInfo } from './api';
import { localPosition, readSfenRecord } from './sfen_play';
import { browserEngine, browserEngineAvailable } from './wasm-engine';

/// Whether `e` says the server could not be reached at all (api.ts's words when fetch fails).
export function unreachable(e: unknown): boolean {
  return e instanceof ApiError && e.message === 'the server cannot be reached';
}

/// The position after `moves` with the server out of reach (`e`, rethrown otherwise): the page's
/// own first (given to `early`), then the engine's with legal moves and the moves' texts.
export async function offlinePosition(e: unknown, sfen: string, moves: string[], early?: (p: PositionInfo) => void): Promise<PositionInfo> {
  if (!unreachable(e)) throw e;
  let local: PositionInfo | undefined;
  try {
    local = localPosition(sfen, moves);
    early?.(local);
  } catch {
    /* a move the page cannot play: the engine says why */
  }
  if (!(await browserEngineAvailable())) {
    if (local) return local;
    throw e;
  }
  try {
    return await browserEngine.board(sfen, moves);
  } catch (err) {
    // The engine could not start (it is then given up for this page): the page's own position.
    if (local && !(await browserEngineAvailable())) return local;
    throw err;
  }
}

/// A record's text read with the server out of reach (`e`, rethrown otherwise): an SFEN or USI
/// position by the page itself, any other format by the browser's engine.
export async function offlineRecord(e: unknown, text: string, name: string): Promise<ParsedRecord> {
  if (!unreachable(e)) throw e;
  const sfen = readSfenRecord(text);
  const engine = await browserEngineAvailable();
  if (sfen && !engine) {
    const p = localPosition(sfen.sfen, sfen.moves);
    return { start_sfen: sfen.sfen, headers: [], start_comments: [], moves: p.moves, result: '', winner: '' };
  }
  if (!engine) throw new ApiError('offline: only SFEN and USI records can be read without the browser\'s engine');
  const r = await browserEngine.record(text, name);
  const moves: MoveText[] = r.board.moves.map((m, i) => ({ ...m, comments: r.comments.get(i + 1) }));
  return { start_sfen: r.start, headers: r.headers, start_comments: r.comments.get(0) ?? [], moves, result: r.result, winner: r.winner };
}
