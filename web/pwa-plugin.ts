// A tiny Vite plugin: builds the service worker (sw.js) into dist/sw.js under that fixed name,
// with the list of the files of the app shell (index.html, the hashed JS and CSS of the build,
// the icons and the manifest of public/) and a version made from them, so a new build replaces
// the cached shell.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const PUBLIC_SHELL = ['/manifest.webmanifest', '/icon.svg', '/icon-192.png', '/icon-512.png'];

export function serviceWorker(): Plugin {
  return {
    name: 'hisha-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((f) => /\.(js|css)$/.test(f)).map((f) => '/' + f);
      const shell = ['/', '/index.html', ...built.sort(), ...PUBLIC_SHELL];
      const version = createHash('sha256').update(shell.join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(fileURLToPath(new URL('./sw.js', import.meta.url)), 'utf8')
        .replace('__HISHA_VERSION__', version)
        .replace('__HISHA_SHELL__', JSON.stringify(shell));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
