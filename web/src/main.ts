// The page: a header with navigation and settings, and one view at a time chosen by the URL
// hash: #/ lobby, #/game/N, #/analysis (records, editor, tsume, engine analysis), #/player/NAME,
// #/ratings (the public rating list and the tournaments' games), #/admin (administrators).
import './storage_guard'; // (first: the modules below read localStorage as they load)
import './style.css';
import { Live, User, get, isAdmin, myName, onSessionEnded, post, setLogin } from './api';
import { clear, h, toast } from './dom';
import { currentLang, setLang, t } from './i18n';
import { lobbyView, loginView } from './lobby';
import { playerView } from './player';
import { embedId, startEmbed } from './embed';
import { gameView } from './game';
import { analysisView } from './analysis';
import { adminView } from './admin';
import { ratingsView } from './ratings';
import { puzzlesView } from './puzzles';
import { app, View } from './app';
import { startNotify } from './notify';
import { guestBar, isGuest, setGuest } from './guest';
import { applySettings, settingsButton } from './settings';
import { mailLinkView, settingsLink, settingsView } from './mail';
import { startPwa } from './pwa';


let current: View | undefined;

function header(): void {
  const nav = document.getElementById('nav')!;
  const me = document.getElementById('me')!;
  const route = location.hash.replace(/^#\/?/, '').split('/')[0];
  const link = (href: string, label: string, key: string) =>
    h('a', { href, class: route === key ? 'active' : undefined, 'aria-current': route === key ? 'page' : undefined }, label);
  clear(nav, link('#/', t('lobby'), ''), link('#/analysis', t('analysis'), 'analysis'), link('#/analysis/editor', t('editor'), 'editor'), link('#/ratings', t('ratings'), 'ratings'), myName() ? link('#/puzzles', t('puzzles'), 'puzzles') : null, myName() ? settingsLink(route === 'settings') : null);
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
    settingsButton(),
    lang,
    myName()
      ? [
          status,
          h('a.user', { href: `#/player/${encodeURIComponent(myName())}` }, myName()),
          isAdmin() ? h('a.admin-link', { href: '#/admin', class: route === 'admin' ? 'active' : undefined }, t('admin')) : null,
          h('button.ghost', { name: 'logout', onclick: () => logout(false) }, t('logout')),
          h('button.ghost', { name: 'logout-everywhere', title: t('logoutEverywhereHint'), onclick: () => logout(true) }, t('logoutEverywhere')),
        ]
      : null,
  );
}

/// Back to the login form (logged out here, elsewhere, or the session expired).
function loggedOut(why: string): void {
  if (!myName()) return;
  setLogin('');
  setGuest(false);
  app.live?.close();
  app.live = undefined;
  if (why) toast(why, 'info');
  location.hash = '#/';
  render();
}

/// Log out of this browser, or of every browser and device (every session of the account).
async function logout(everywhere: boolean): Promise<void> {
  try {
    await post(everywhere ? 'logout/everywhere' : 'logout');
  } catch {
    /* the session may be gone already */
  }
  loggedOut('');
}

/// The live socket of a logged-in page; an administrator's announcement shows wherever one is.
function startLive(): Live {
  const live = new Live();
  startNotify(live); // "your turn": title badge, sound, notifications (issue 20)
  live.on((e) => {
    if (e.type === 'announce') toast(`${t('announcement')} (${e.from}): ${e.text}`, 'info');
    if (e.type === 'shutdown') toast(t('serverStopping'), 'info'); // (the socket comes back with the server)
  });
  return live;
}

function loggedIn(): void {
  app.live?.close();
  app.live = startLive();
  render();
}

function render(): void {
  const embedded = embedId(); // /embed/N: the read-only board alone (embed.ts)
  if (embedded !== undefined) return startEmbed(embedded);
  current?.dispose?.();
  const root = document.getElementById('app')!;
  if (myName() && !app.live) app.live = startLive();
  const [route, arg] = location.hash.replace(/^#\/?/, '').split('/');
  header();
  try {
    if (route === 'game' && arg) current = gameView(Number(arg));
    else if (route === 'analysis') current = analysisView(arg || '');
    else if (route === 'player' && arg) current = playerView(decodeURIComponent(arg));
    else if (route === 'ratings') current = ratingsView();
    else if (route === 'puzzles' && myName()) current = puzzlesView();
    else if (route === 'admin' && myName()) current = adminView();
    else if (route === 'settings' && myName()) current = settingsView(); // mail.ts (issue 20)
    else if (route === 'mail') current = mailLinkView(); // the mails' confirm and unsubscribe links
    else current = myName() ? lobbyView() : loginView();
  } catch (e) {
    toast(String(e), 'error');
    current = { el: h('p', String(e)) };
  }
  clear(root, guestBar(), current.el);
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

/// On load: is the session (the cookie) still good, and who is it?
async function checkSession(): Promise<void> {
  if (!myName()) return;
  try {
    const me = await get<{ user: User }>('me');
    if (me.user.name !== myName() || !!me.user.admin !== isAdmin() || !!me.user.guest !== isGuest()) {
      setLogin(me.user.name, !!me.user.admin);
      setGuest(!!me.user.guest);
      render();
    }
  } catch {
    /* a 401 has logged the page out already (onSessionEnded); else the server is away */
  }
}

app.loggedIn = loggedIn;
onSessionEnded((why) => loggedOut(why || t('sessionEnded')));
window.addEventListener('hashchange', render);
document.body.dataset.pieces = localStorage.getItem('hisha.pieces') || 'kanji';
setGuest(isGuest());
applySettings();
startPwa();
render();
void footer();
void checkSession();
