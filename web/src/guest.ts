// Guest play: "Play as guest" beside login and register gives the visitor a temporary account at
// once (POST /api/guest; the session is the usual HttpOnly cookie), to play the engine (unrated),
// analyse and solve. While a guest, a bar offers "Create an account to keep your games": POST
// /api/register from the guest's session makes the account and gives it the guest's games.
import { ApiError, User, myName, post, setLogin } from './api';
import { h } from './dom';
import { currentLang } from './i18n';
import { app } from './app';

const TEXT = {
  playAsGuest: ['Play as guest', 'ゲストで遊ぶ'],
  guestHint: ['No account needed: play the engine, analyse and solve tsume at once.', 'アカウントなしで、すぐにエンジンとの対局・検討・詰将棋ができます。'],
  guestBar: ['You are playing as a guest ({name}): your games against the engine are unrated and the guest account expires after a day.', 'ゲスト（{name}）として遊んでいます。エンジンとの対局はレーティング対象外で、ゲストアカウントは1日で削除されます。'],
  keepGames: ['Create an account to keep your games', 'アカウントを作成して対局を残す'],
  create: ['Create account', 'アカウント作成'], name: ['Name', '名前'], password: ['Password', 'パスワード'],
} satisfies Record<string, readonly [string, string]>;
export function tg(key: keyof typeof TEXT, name = ''): string {
  return TEXT[key][currentLang() === 'ja' ? 1 : 0].replace('{name}', name);
}

export function isGuest(): boolean {
  return !!myName() && localStorage.getItem('hisha.guest') === '1';
}
/// Remembers whether the page's account is a guest's (the server's /api/me says so too).
export function setGuest(guest: boolean): void {
  if (guest) localStorage.setItem('hisha.guest', '1');
  else localStorage.removeItem('hisha.guest');
  document.body.classList.toggle('guest', isGuest());
}

/// The login form's "Play as guest" button; `msg` shows why it failed (a limit, guests off).
export function guestButton(msg: HTMLElement): HTMLElement {
  return h('div.guest-start',
    h('button.primary', { type: 'button', name: 'guest', onclick: async () => {
      try {
        const r = await post<{ user: User }>('guest', {});
        setLogin(r.user.name);
        setGuest(true);
        app.loggedIn();
      } catch (e) {
        msg.textContent = (e as ApiError).message;
      }
    } }, tg('playAsGuest')),
    h('p.small', tg('guestHint')));
}

/// The bar above a guest's pages: what a guest is, and the form that makes it an account.
export function guestBar(): HTMLElement | null {
  if (!isGuest()) return null;
  const name = h('input', { name: 'new-name', autocomplete: 'username', required: true, 'aria-label': tg('name'), placeholder: tg('name') });
  const pass = h('input', { name: 'new-password', type: 'password', autocomplete: 'new-password', required: true, 'aria-label': tg('password'), placeholder: tg('password') });
  const msg = h('span.error', { role: 'alert' });
  const form = h('form.row', { hidden: true, onsubmit: async (e: Event) => {
    e.preventDefault();
    try {
      const r = await post<{ user: User }>('register', { name: name.value.trim(), password: pass.value, cookie: true });
      setLogin(r.user.name, !!r.user.admin);
      setGuest(false);
      app.loggedIn();
    } catch (err) {
      msg.textContent = (err as ApiError).message;
    }
  } }, name, pass, h('button.primary', { type: 'submit', name: 'create-account' }, tg('create')), msg);
  return h('div.guest-bar', { role: 'note' },
    h('span', tg('guestBar', myName())), ' ',
    h('button.small', { type: 'button', name: 'keep-games', onclick: () => { form.hidden = false; name.focus(); } }, tg('keepGames')),
    form);
}
