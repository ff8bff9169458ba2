// The tsume solver's explanation under its line (POST /api/tsume with "explain": true): for each
// defence of the main line where the defender had a choice, why the other defences lose (the
// mate the server's solver proves after each, or "futile interposition"), and the yozume report
// (other attacker's moves that mate within the plies left). Questions the server could not
// answer within its budget are shown as such, never guessed.
import { MoveText, call, myName } from './api';
import { clear, h } from './dom';
import { currentLang } from './i18n';
import { notationPref } from './game';

type Move = MoveText | string;
interface Other { move: Move; verdict: 'mate' | 'nomate' | 'timeout' | 'futile'; length: number; line: Move[] }
interface Defence { ply: number; played: Move; remaining: number; others: Other[] }
interface AltMate { ply: number; played: Move; remaining: number; move: Move; length?: number; line?: Move[] }
export interface Explanation { defences: Defence[]; yozume: AltMate[]; undecided: AltMate[]; questions: number; timeouts: number }

const TEXT = {
  explain: ['Why? (other defences, yozume)', 'なぜ？（変化・余詰）'],
  explaining: ['Asking the solver about every other move…', '変化と余詰を調べています…'],
  login: ['Log in to ask the server’s solver', 'サーバーの解図にはログインが必要です'],
  ply: ['Move', '手目'],
  left: ['plies left', ''],
  mate: ['mate in', '手詰'],
  asLong: ['as long', '同手数'],
  futile: ['futile interposition', '無駄合'],
  nomate: ['no mate proven', '詰みを証明できず'],
  timeout: ['no answer within the budget', '制限内に答えなし'],
  yozume: ['Yozume (another mate)', '余詰'],
  noYozume: ['No yozume: no other attacker’s move mates within the plies left', '余詰なし'],
  undecided: ['Undecided (budget ran out)', '未判定（制限切れ）'],
  instead: ['instead of', 'の代わりに'],
  defences: ['Other defences', '変化'],
} as const;

function say(key: keyof typeof TEXT): string {
  return TEXT[key][currentLang() === 'ja' ? 1 : 0];
}

function moveText(m: Move): string {
  if (typeof m === 'string') return m;
  return notationPref() === 'ja' ? m.ja : m.western;
}

function mateIn(n: number): string {
  return currentLang() === 'ja' ? `${n}${say('mate')}` : `${say('mate')} ${n}`;
}

function otherItem(d: Defence, o: Other): HTMLElement {
  const what = o.verdict === 'mate'
    ? [mateIn(o.length), o.length === d.remaining ? ` (${say('asLong')})` : '', ': ', h('span.tsume-line', o.line.map(moveText).join(' '))]
    : [say(o.verdict)];
  return h('li', { 'data-verdict': o.verdict, 'data-length': o.length }, h('b', moveText(o.move)), ' — ', ...what);
}

export function renderExplanation(e: Explanation): HTMLElement {
  const box = h('div.tsume-explain');
  if (e.defences.length) {
    box.append(h('h4', say('defences')));
    for (const d of e.defences)
      box.append(h('div.tsume-defence', { 'data-ply': d.ply },
        h('p.meta', currentLang() === 'ja' ? `${d.ply}${say('ply')} ${moveText(d.played)}（残り${d.remaining}手）`
          : `${say('ply')} ${d.ply}: ${moveText(d.played)} (${d.remaining} ${say('left')})`),
        h('ul', ...d.others.map((o) => otherItem(d, o)))));
  }
  box.append(h('h4', say('yozume')));
  if (!e.yozume.length) box.append(h('p.tsume-no-yozume', say('noYozume')));
  else box.append(h('ul.tsume-yozume', ...e.yozume.map((y) => h('li', { 'data-ply': y.ply },
    `${y.ply}: `, h('b', moveText(y.move)), ` ${say('instead')} ${moveText(y.played)} — ${mateIn(y.length ?? 0)}: `,
    h('span.tsume-line', (y.line ?? []).map(moveText).join(' '))))));
  if (e.undecided.length)
    box.append(h('p.meta.tsume-undecided', `${say('undecided')}: `, e.undecided.map((u) => `${u.ply}: ${moveText(u.move)}`).join(', ')));
  box.append(h('p.meta', `${e.questions} questions, ${e.timeouts} timeouts`));
  return box;
}

/// A button that asks the server to explain the solution of `sfen` and shows the answer below.
export function explainPanel(sfen: string): HTMLElement {
  const out = h('div.tsume-explain-out', { role: 'status' });
  const button = h('button.small', { name: 'explain-tsume', onclick: async () => {
    if (!myName()) return void clear(out, h('p.meta', say('login')));
    button.disabled = true;
    clear(out, say('explaining'));
    try {
      const r = await call<{ status: string; explain?: Explanation }>('POST', 'tsume', { sfen, convention: 'tsume', time_limit_s: 20, explain: true });
      if (r.status !== 'mate' || !r.explain) clear(out, h('span.error', r.status));
      else clear(out, renderExplanation(r.explain));
    } catch (e) {
      clear(out, h('span.error', String((e as Error).message)));
    } finally {
      button.disabled = false;
    }
  } }, say('explain'));
  return h('div', button, out);
}
