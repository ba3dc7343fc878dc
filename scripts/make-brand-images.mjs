// Draws the site's brand images with nothing but Node's zlib (both are committed; run again only to change them):
// - public/og-default.png, the default 1200×630 share image (Seo.tsx DEFAULT_OG_IMAGE): a blue background, the name
//   in a bitmap font, a line about what ARB does and a review card with stars;
// - public/og-ask-arb.png, the Ask ARB page's own share image (black, like the page);
// - public/favicon.ico, a 32×32 star on blue (browsers ask for /favicon.ico on every site; a 404 there is a console
//   error on every page).
// Run: node scripts/make-brand-images.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

let W = 1200;
let H = 630;
let px = Buffer.alloc(W * H * 3);

function set(x, y, [r, g, b]) {
  if (x < 0 || y < 0 || x >= W || y >= H) return;
  const i = (y * W + x) * 3;
  px[i] = r;
  px[i + 1] = g;
  px[i + 2] = b;
}

function rect(x0, y0, w, h, color) {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y, color);
}

function roundRect(x0, y0, w, h, r, color) {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const dx = Math.max(x0 + r - x, 0, x - (x0 + w - 1 - r));
      const dy = Math.max(y0 + r - y, 0, y - (y0 + h - 1 - r));
      if (dx * dx + dy * dy <= r * r) set(x, y, color);
    }
  }
}

// 5×7 bitmap glyphs, one string per row ('#' = on).
const FONT = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  '&': ['.##..', '#..#.', '#.#..', '.#...', '#.#.#', '#..#.', '.##.#'],
  ',': ['.....', '.....', '.....', '.....', '.##..', '..#..', '.#...'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

function text(str, x0, y0, scale, color) {
  let x = x0;
  for (const ch of str) {
    const glyph = FONT[ch];
    if (!glyph) throw new Error(`no glyph for "${ch}"`);
    glyph.forEach((row, gy) => {
      [...row].forEach((bit, gx) => {
        if (bit === '#') rect(x + gx * scale, y0 + gy * scale, scale, scale, color);
      });
    });
    x += 6 * scale;
  }
}

function star(cx, cy, outer, inner, color) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const r = i % 2 === 0 ? outer : inner;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  for (let y = Math.floor(cy - outer); y <= cy + outer; y++) {
    for (let x = Math.floor(cx - outer); x <= cx + outer; x++) {
      let inside = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i];
        const [xj, yj] = pts[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      if (inside) set(x, y, color);
    }
  }
}

// Background: a vertical blend from the brand blue to near-black.
for (let y = 0; y < H; y++) {
  const t = y / (H - 1);
  const c = [Math.round(29 + (15 - 29) * t), Math.round(78 + (23 - 78) * t), Math.round(216 + (42 - 216) * t)];
  rect(0, y, W, 1, c);
}

const WHITE = [255, 255, 255];
const PALE = [219, 234, 254];
text('ARB', 80, 100, 22, WHITE);
text('APP STORE & GOOGLE PLAY', 84, 340, 6, WHITE);
text('REVIEWS IN YOUR TEAM CHAT', 84, 398, 6, WHITE);
text('SLACK, TEAMS, MATTERMOST, DISCORD, WEBEX', 84, 500, 3, PALE);

// A review card with five stars and three text lines, above the right end of the tagline.
roundRect(760, 70, 360, 230, 24, WHITE);
for (let i = 0; i < 5; i++) star(810 + i * 60, 124, 24, 10, [245, 158, 11]);
roundRect(792, 172, 296, 16, 8, [203, 213, 225]);
roundRect(792, 204, 256, 16, 8, [226, 232, 240]);
roundRect(792, 236, 276, 16, 8, [226, 232, 240]);

// PNG: signature, IHDR, one IDAT (filter byte 0 per row), IEND.
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function encodePng() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) px.copy(raw, y * (W * 3 + 1) + 1, y * W * 3, (y + 1) * W * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const publicDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'public');
fs.mkdirSync(publicDir, { recursive: true });
const og = encodePng();
fs.writeFileSync(path.join(publicDir, 'og-default.png'), og);
console.log(`wrote public/og-default.png (${og.length} bytes)`);

// public/og-ask-arb.png: the Ask ARB page's own share image, dark like the page.
px = Buffer.alloc(W * H * 3);
rect(0, 0, W, H, [0, 0, 0]);
text('ASK ARB', 80, 100, 18, WHITE);
text('ANSWERS ABOUT YOUR REVIEWS', 84, 340, 5, WHITE);
text('FROM YOUR OWN REVIEWS', 84, 398, 5, WHITE);
text('SUMMARIES, SENTIMENT, TRANSLATION', 84, 500, 3, PALE);
const askArb = encodePng();
fs.writeFileSync(path.join(publicDir, 'og-ask-arb.png'), askArb);
console.log(`wrote public/og-ask-arb.png (${askArb.length} bytes)`);

// Favicon: a gold star on the brand blue, 32×32, stored as a PNG inside an ICO container (supported by every browser).
W = 32;
H = 32;
px = Buffer.alloc(W * H * 3);
rect(0, 0, W, H, [29, 78, 216]);
star(16, 17, 14, 6, [245, 158, 11]);
const icon = encodePng();
const header = Buffer.alloc(22);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(1, 4); // one image
header[6] = W;
header[7] = H;
header.writeUInt16LE(1, 10); // colour planes
header.writeUInt16LE(24, 12); // bits per pixel
header.writeUInt32LE(icon.length, 14);
header.writeUInt32LE(22, 18); // image data starts right after this header
fs.writeFileSync(path.join(publicDir, 'favicon.ico'), Buffer.concat([header, icon]));
console.log(`wrote public/favicon.ico (${icon.length + 22} bytes)`);
