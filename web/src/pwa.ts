// Installable and offline: the service worker (/sw.js, see web/sw.js) is registered on a built
// page, and a banner says when the network is gone (the page still works from the cache; what
// needs the server fails with a message).
import { h } from './dom';
import { currentLang } from './i18n';

const OFFLINE = ['Offline: the app runs from this device; games, lobby and server analysis come back with the network.',
  'オフライン：この端末に保存したアプリで動作中です。対局・ロビー・サーバーの解析はネットワークが戻ると使えます。'];

export function startPwa(): void {
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('/sw.js').catch(() => { /* (an insecure origin other than localhost) */ });
    });
  }
  const banner = h('div.offline-banner', { role: 'status', hidden: navigator.onLine }, OFFLINE[currentLang() === 'ja' ? 1 : 0]);
  document.body.prepend(banner);
  const update = () => {
    banner.textContent = OFFLINE[currentLang() === 'ja' ? 1 : 0];
    banner.hidden = navigator.onLine;
    document.body.classList.toggle('offline', !navigator.onLine);
  };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}
