// Checks PNG files as the guide's pictures must be: a valid PNG (signature, chunk CRCs, IHDR,
// the image data inflates and unfilters to exactly the rows its header says), of the expected
// width and height, at most 150 kB, and not blank (many distinct colours, no colour covering
// almost everything).
// Usage: node png_check.mjs DIR NAME=WIDTHxHEIGHT...   Exit 1 with one line per failure.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const MIN_COLOURS = 16;      // a blank or single-colour page has a handful at most
const MAX_TOP_SHARE = 0.95;  // the most common colour (the background) covers less than this
const MAX_BYTES = 150000;    // small enough for the repository and a page of the guide

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/// { width, height, colours, topShare } of a PNG, or throws saying what is wrong.
export function inspectPng(bytes) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  if (bytes.length < 8 || sig.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG (signature)');
  let pos = 8, ihdr = null, palette = null, ended = false;
  const idat = [];
  while (pos < bytes.length) {
    if (pos + 12 > bytes.length) throw new Error('truncated chunk');
    const len = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    if (pos + 12 + len > bytes.length) throw new Error(`truncated ${type} chunk`);
    const data = bytes.subarray(pos + 8, pos + 8 + len);
    if (crc32(bytes.subarray(pos + 4, pos + 8 + len)) !== bytes.readUInt32BE(pos + 8 + len)) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') ihdr = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], colourType: data[9], interlace: data[12] };
    else if (type === 'PLTE') palette = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') { ended = true; break; }
    pos += 12 + len;
  }
  if (!ihdr) throw new Error('no IHDR');
  if (!ended) throw new Error('no IEND');
  if (!idat.length) throw new Error('no image data');
  const { width, height, depth, colourType, interlace } = ihdr;
  if (interlace) throw new Error('interlaced (not expected from Chromium or pngquant)');
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType];
  if (!channels) throw new Error(`colour type ${colourType}`);
  if (colourType === 3 && !palette) throw new Error('palette image without PLTE');
  if ((colourType === 2 || colourType === 4 || colourType === 6) && depth !== 8) throw new Error(`bit depth ${depth} (8 expected)`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const bitsPerPixel = channels * depth;
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const bpp = Math.max(1, bitsPerPixel >> 3);
  if (raw.length !== height * (stride + 1)) throw new Error(`image data is ${raw.length} bytes, ${height * (stride + 1)} expected`);
  let prev = Buffer.alloc(stride);
  const counts = new Map();
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let add;
      if (filter === 0) add = 0;
      else if (filter === 1) add = a;
      else if (filter === 2) add = b;
      else if (filter === 3) add = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else throw new Error(`row ${y}: filter ${filter}`);
      row[i] = (row[i] + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      let key;
      if (depth < 8) {
        const bit = x * depth;
        key = (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
      } else {
        key = 0;
        for (let k = 0; k < channels; k++) key = key * 256 + row[x * channels + k];
      }
      if (colourType === 3) key = palette.readUIntBE(key * 3, 3);  // the colour, not the index
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    prev = row;
  }
  const top = Math.max(...counts.values());
  return { width, height, colours: counts.size, topShare: top / (width * height) };
}

const [dir, ...expected] = process.argv.slice(2);
let failures = 0;
for (const spec of expected) {
  const [name, size] = spec.split('=');
  const [w, h] = size.split('x').map(Number);
  const file = path.join(dir, name);
  try {
    if (!fs.existsSync(file)) throw new Error('missing');
    const bytes = fs.readFileSync(file);
    const info = inspectPng(bytes);
    if (info.width !== w || info.height !== h) throw new Error(`${info.width}x${info.height}, ${w}x${h} expected`);
    if (bytes.length > MAX_BYTES) throw new Error(`${bytes.length} bytes, more than ${MAX_BYTES} (optimised with pngquant?)`);
    if (info.colours < MIN_COLOURS) throw new Error(`only ${info.colours} colours: blank?`);
    if (info.topShare >= MAX_TOP_SHARE) throw new Error(`one colour covers ${(100 * info.topShare).toFixed(1)}%: blank?`);
    console.log(`png: ${name} ${info.width}x${info.height}, ${bytes.length} bytes, ${info.colours} colours, background ${(100 * info.topShare).toFixed(1)}%`);
  } catch (e) {
    failures += 1;
    console.log(`FAIL: ${name}: ${e.message}`);
  }
}
process.exit(failures ? 1 : 0);
