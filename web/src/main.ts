// The page: a header with navigation and settings, and one view at a time chosen by the URL
// hash: #/ lobby, #/game/N, #/analysis (records, editor, tsume, engine analysis), #/player/NAME.
import './style.css';
import { Live, get, myName, post, setLogin, token } from './api';
import { clear, h, toast } from './dom';
import { currentLang, setLang, t } from './i18n';
import { lobbyView, loginView, playerView } from './lobby';
import { gameView } from './game';
import { analysisView } from './analysis';

export interface View {
  el: HTMLElement;
  dispose?: () => void;
}

export const app = {
  live: undefined as Live | undefined,
};

let current: View | undefined;

function header(): void {
  const nav = document.getElementById('nav')!;
  const me = document.getElementById('me')!;
  const route = location.hash.replace(/^#\/?/, '').split('/')[0];
  const link = (href: string, label: string, key: string) =>
    h('a', { href, class: route === key ? 'active' : undefined, 'aria-current': route === key ? 'page' : undefined }, label);
  clear(nav, link('#/', t('lobby'), ''), link('#/analysis', t('analysis'), 'analysis'), link('#/analysis/editor', t('editor'), 'editor'));
  const lang = h('button.ghost', { name: 'lang', onclick: () => { setLang(currentLang() === 'ja' ? 'en' : 'ja'); render(); }, title: 'English / 日本語' }, t('language'));
  const status = h('span.conn', { 'aria-label': t('connected') });
  if (app.live) {
    const update = (up: boolean) => {
      status.classList.toggle('down', !up);
      status.title = up ? t('connected') : t('reconnecting');
    };
    update(app.live.up);
    app.live.onStatus(update);
  }
  clear(
    me,
    lang,
    token() ? [status, h('a.user', { href: `#/player/${encodeURIComponent(myName())}` }, myName()), h('button.ghost', { onclick: logout }, t('logout'))] : null,
  );
}

async function logout(): Promise<void> {
  try {
    await post('logout');
  } catch {
    /* the token may be gone already */
  }
  setLogin('', '');
  app.live?.close();
  app.live = undefined;
  location.hash = '#/';
  render();
}

export function loggedIn(): void {
  app.live?.close();
  app.live = new Live();
  render();
}

export function render(): void {
  current?.dispose?.();
  const root = document.getElementById('app')!;
  if (token() && !app.live) app.live = new Live();
  const [route, arg] = location.hash.replace(/^#\/?/, '').split('/');
  header();
  try {
    if (route === 'game' && arg) current = gameView(Number(arg));
    else if (route === 'analysis') current = analysisView(arg || '');
    else if (route === 'player' && arg) current = playerView(decodeURIComponent(arg));
    else current = token() ? lobbyView() : loginView();
  } catch (e) {
    toast(String(e), 'error');
    current = { el: h('p', String(e)) };
  }
  clear(root, current.el);
}

/// The footer names the server's version (GET /api/version), so a report can say what it ran.
async function footer(): Promise<void> {
  try {
    const v = await get<{ version: string }>('version');
    document.getElementById('version')!.textContent = `Hisha ${v.version}`;
  } catch {
    /* an older or unreachable server: the footer stays empty */
  }
}

window.addEventListener('hashchange', render);
document.body.dataset.pieces = localStorage.getItem('hisha.pieces') || 'kanji';
render();
void footer();
