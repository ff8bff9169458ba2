// Mail notifications (issue 20), where the server's operator configured SMTP (GET /api/mail is
// 404 otherwise, and none of this shows). #/settings: the player's address (a confirmation link
// is mailed to it; nothing else goes there until it is opened) and what is mailed: "your turn" in
// correspondence games while away, challenges that name them, game ends, messages kept for them.
// #/mail/confirm/TOKEN and #/mail/unsubscribe/TOKEN: the links of the mails (no login needed).
import { call, myName, post } from './api';
import type { View } from './app';
import { clear, h, toast } from './dom';
import { currentLang } from './i18n';

const tr = (en: string, ja: string) => (currentLang() === 'ja' ? ja : en);

interface MailSettings { address: string; confirmed: boolean; kinds: string[] }

const KINDS: [string, string, string][] = [
  ['turn', 'Your turn in a correspondence game (while you are away; once a game until you look)', '通信対局での手番（不在時・見るまで一局一通）'],
  ['challenge', 'Challenges that name you', 'あなた宛ての挑戦'],
  ['end', 'Your games’ ends', '対局の終了'],
  ['message', 'Messages left for you while you were away', '不在中のメッセージ'],
];

let available: Promise<boolean> | undefined;

/// Whether this server sends mail (asked once a page load).
export function mailAvailable(): Promise<boolean> {
  // (404: no SMTP on this server; 400: a guest, who keeps no address)
  available ??= call<MailSettings>('GET', 'mail').then(() => true, () => false);
  return available;
}

/// The header's "Settings" link: shown once the server is known to send mail.
export function settingsLink(active: boolean): HTMLElement {
  const a = h('a', { href: '#/settings', hidden: true, class: active ? 'active' : undefined }, tr('Settings', '設定'));
  if (myName()) void mailAvailable().then((yes) => { a.hidden = !yes; });
  return a;
}

function statusText(s: MailSettings): string {
  if (!s.address) return tr('No address: nothing is mailed.', 'アドレス未登録：メールは送られません。');
  return s.confirmed
    ? tr(`Mail goes to ${s.address}.`, `${s.address} に送ります。`)
    : tr(`A confirmation link was mailed to ${s.address}: open it, then mail goes there.`,
      `${s.address} に確認リンクを送りました。開くと送信が始まります。`);
}

/// #/settings: the mail settings.
export function settingsView(): View {
  const el = h('section.col.mail-settings', h('h2', tr('Mail notifications', 'メール通知')));
  const status = h('p.mail-status', { role: 'status' });
  const address = h('input', { type: 'email', name: 'mail-address', autocomplete: 'email', placeholder: 'name@example.org' });
  const boxes = KINDS.map(([k]) => [k, h('input', { type: 'checkbox', name: `mail-${k}` })] as const);
  const show = (s: MailSettings) => {
    address.value = s.address;
    status.textContent = statusText(s);
    for (const [k, box] of boxes) box.checked = s.kinds.includes(k);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const kinds = boxes.filter(([, b]) => b.checked).map(([k]) => k);
      show(await call<MailSettings>('PUT', 'mail', { address: address.value.trim(), kinds }));
      toast(tr('Saved.', '保存しました。'), 'info');
    } catch (err) {
      toast(String((err as Error).message || err), 'error');
    }
  };
  const form = h('form.card', { onsubmit: save },
    h('label', tr('E-mail address', 'メールアドレス'), ' ', address), status,
    h('fieldset', h('legend', tr('What is mailed', '送る内容')),
      boxes.map(([, box], i) => h('label', box, ' ', tr(KINDS[i][1], KINDS[i][2])) as HTMLElement)),
    h('button', { type: 'submit', name: 'mail-save' }, tr('Save', '保存')));
  el.append(form);
  call<MailSettings>('GET', 'mail').then(show, (err) => {
    clear(el, h('h2', tr('Settings', '設定')), h('p', String((err as Error).message || err)));
  });
  return { el };
}

/// #/mail/confirm/TOKEN and #/mail/unsubscribe/TOKEN: done at once, the result shown.
export function mailLinkView(): View {
  const [, action, token] = location.hash.replace(/^#\/?/, '').split('/');
  const out = h('p.mail-result', { role: 'status' }, tr('One moment…', 'お待ちください…'));
  const el = h('section.col', h('div.card', h('h2', tr('Mail notifications', 'メール通知')), out));
  const request = action === 'confirm'
    ? post<{ user: string }>('mail/confirm', { token: token ?? '' })
    : post<{ user: string }>(`mail/unsubscribe/${encodeURIComponent(token ?? '')}`);
  request.then(
    (r) => {
      out.textContent = action === 'confirm'
        ? tr(`Your address is confirmed, ${r.user}: mail will come as you chose in Settings.`,
          `${r.user}さんのアドレスを確認しました。設定どおりにメールを送ります。`)
        : tr(`No more mail for ${r.user}. You can choose again in Settings.`,
          `${r.user}さんへのメールを停止しました。設定で再開できます。`);
    },
    (err) => { out.textContent = String((err as Error).message || err); out.classList.add('error'); });
  return { el };
}
