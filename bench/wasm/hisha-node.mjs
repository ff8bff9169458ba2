// Runs the browser's engine (build-wasm/web/hisha.js + hisha.wasm) in node, a command a line:
//   node bench/wasm/hisha-node.mjs WEB_DIR [--net] [--put HOST_FILE=WASM_PATH]... 'command' ['command' ...]
// --net loads WEB_DIR/hisha.nnue as the page's worker does (EvalFile, Evaluation NNUE); --put
// copies a file into the engine's file system (the record command reads one, as in the worker).
// Prints the engine's lines. Used by bench/wasm/bench.sh.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: hisha-node.mjs WEB_DIR [--net] COMMAND...');
  process.exit(2);
}
const web = resolve(dir);
const net = rest[0] === '--net';
const commands = net ? rest.slice(1) : rest;
const puts = [];
while (commands[0] === '--put') puts.push(commands.splice(0, 2)[1].split('='));
const { default: createHisha } = await import(pathToFileURL(join(web, 'hisha.js')).href);
const mod = await createHisha({
  wasmBinary: readFileSync(join(web, 'hisha.wasm')),
  print: (line) => console.log(line),
  printErr: (line) => console.error(line),
});
mod.ccall('hisha_init', null, [], []);
if (net) {
  mod.FS.writeFile('/hisha.nnue', readFileSync(join(web, 'hisha.nnue')));
  for (const c of ['setoption name EvalFile value /hisha.nnue', 'setoption name Evaluation value NNUE'])
    mod.ccall('hisha_command', null, ['string'], [c]);
}
for (const [host, path] of puts) mod.FS.writeFile(path, readFileSync(host));
for (const c of commands) mod.ccall('hisha_command', null, ['string'], [c]);
