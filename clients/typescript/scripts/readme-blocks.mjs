#!/usr/bin/env node
// Extracts every ```ts block of the repository's README.md into dist/readme/block-N.mts, for
// `npm run typecheck:readme` (tsconfig.readme.json) to type-check verbatim.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
if (blocks.length === 0) {
  console.error("README.md has no ```ts block: the TypeScript example is gone");
  process.exit(1);
}
const dir = new URL("../dist/readme/", import.meta.url);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
blocks.forEach((code, i) => writeFileSync(new URL(`block-${i + 1}.mts`, dir), code, "utf8"));
console.log(`README.md: ${blocks.length} TypeScript block(s)`);
