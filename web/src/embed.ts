// The embeddable board (/embed/N, the one page the server lets other sites frame): game N
// read-only, its players and result, the moves browsed with the arrows, the wheel or the
// buttons; it follows a game in play by polling (no login, no socket in a frame). A link opens
// the game on this server.
import { Game, PositionInfo, get, post } from './api';
import { Board } from './board';
import { clear, h } from './dom';
import { isUsi, resultText } from './game';

/// The game's id when the page is the embed path (/embed/N), else undefined.
export function embedId(): number | undefined {
  const m = /^\/embed\/(\d+)$/.exec(location.pathname);
  return m ? Number(m[1]) : undefined;
}

let started = false;

export function startEmbed(id: number): void {
  if (started) return;
  started = true;
  document.body.classList.add('embed');
  const root = document.getElementById('app')!;
  const boardEl = h('div.board-area');
  const board = new Board(boardEl, () => {});
  const title = h('div.embed-title');
  const status = h('div.embed-status', { role: 'status' });
  let game: Game | undefined;
  let viewing = -1; // the ply shown (-1: the last)
  const show = async () => {
    if (!game?.moves) return;
    const n = game.moves.length;
    const ply = viewing < 0 ? n : viewing;
    const moves = game.moves.slice(0, ply).map((m) => m.usi).filter(isUsi);
    const last = game.moves[ply - 1];
    status.textContent = `${ply}/${n}${last ? `  ${last.by === 'black' ? '☗' : '☖'}${last.western}` : ''}  ${resultText(game)}`;
    if (viewing < 0) {
      board.show({ sfen: game.sfen, legal: [], last: moves[moves.length - 1], check: game.check, movable: 'none' });
      return;
    }
    const p = await post<PositionInfo>('position', { sfen: game.start_sfen, moves });
    board.show({ sfen: p.sfen, legal: [], last: moves[moves.length - 1], check: p.check, movable: 'none' });
  };
  const go = (ply: number) => {
    const n = game?.moves?.length ?? 0;
    viewing = ply >= n ? -1 : Math.max(0, ply);
    void show();
  };
  const cur = () => (viewing < 0 ? game?.moves?.length ?? 0 : viewing);
  const load = async () => {
    try {
      game = await get<Game>(`games/${id}`);
      clear(title, h('a', { href: `/#/game/${id}`, target: '_blank', rel: 'noopener' }, `☗ ${game.black} – ☖ ${game.white}`), ` (${game.time_control})`);
      await show();
    } catch (e) {
      status.textContent = String((e as Error).message);
    }
  };
  document.addEventListener('keydown', (e) => {
    const keys: Record<string, () => number> = { ArrowLeft: () => cur() - 1, ArrowRight: () => cur() + 1, Home: () => 0, End: () => 1e9 };
    if (keys[e.key]) {
      e.preventDefault();
      go(keys[e.key]());
    }
  });
  boardEl.addEventListener('wheel', (e) => {
    e.preventDefault();
    go(cur() + (e.deltaY > 0 ? 1 : -1));
  }, { passive: false });
  const nav = h('div.row.embed-nav',
    h('button', { name: 'first', onclick: () => go(0) }, '«'), h('button', { name: 'prev', onclick: () => go(cur() - 1) }, '◀'),
    h('button', { name: 'next', onclick: () => go(cur() + 1) }, '▶'), h('button', { name: 'last', onclick: () => go(1e9) }, '»'),
    h('button', { name: 'flip', onclick: () => board.flip() }, '⇅'));
  clear(root, h('div.embed-page', title, boardEl, nav, status));
  void load();
  setInterval(() => {
    if (game?.status === 'active' || game?.status === 'offered') void load();
  }, 3000);
}
