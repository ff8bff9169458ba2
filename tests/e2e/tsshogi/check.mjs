// Reads every file listed in a manifest with tsshogi and compares its start position and main
// line with what Hisha expects. Manifest lines: <file> TAB <kif|ki2|csa> TAB <start sfen> TAB <usi moves>
// Prints "N passed, M failed" and exits non-zero on any failure.
import { readFileSync } from "node:fs";
import { importKIF, importKI2, importCSA, Move } from "tsshogi";

const readers = { kif: importKIF, ki2: importKI2, csa: importCSA };
const manifest = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.trim());
let passed = 0, failed = 0;
// Board, side and hands of an SFEN (the move number is not compared).
const core = (sfen) => sfen.split(" ").slice(0, 3).join(" ");

for (const line of manifest) {
  const [file, format, start, moves] = line.split("\t");
  const record = readers[format](readFileSync(file, "utf8"));
  const problems = [];
  if (record instanceof Error) {
    problems.push(`tsshogi refused it: ${record.message}`);
  } else {
    if (core(record.initialPosition.sfen) !== core(start))
      problems.push(`start ${record.initialPosition.sfen} != ${start}`);
    const got = record.moves.map((n) => n.move).filter((m) => m instanceof Move).map((m) => m.usi).join(" ");
    if (got !== (moves || "")) problems.push(`moves differ:\n  tsshogi ${got}\n  hisha   ${moves}`);
  }
  if (problems.length) {
    failed++;
    console.log(`FAIL ${file}: ${problems.join("; ")}`);
  } else passed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
