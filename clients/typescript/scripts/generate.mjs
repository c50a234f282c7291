#!/usr/bin/env node
// Generates src/schema.d.ts from the repository's OpenAPI document with openapi-typescript,
// the same output as its CLI (header comment included):
//
//   node scripts/generate.mjs           write src/schema.d.ts   (npm run generate)
//   node scripts/generate.mjs --check   fail when the committed file differs (npm run check:generated)
//
// One function for both, so the check can never test other options than the generator uses.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

const DOC = new URL("../../../openapi/openapi.json", import.meta.url);
const OUT = new URL("../src/schema.d.ts", import.meta.url);

async function generate() {
  // rootTypes: every component schema also exported by its own name (`CoverRequest`...).
  const ast = await openapiTS(DOC, { rootTypes: true, rootTypesNoSchemaPrefix: true, silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

const fresh = await generate();
if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(OUT, "utf8");
  } catch {
    // missing: reported as stale below
  }
  if (committed !== fresh) {
    const a = committed.split("\n");
    const b = fresh.split("\n");
    let line = 0;
    while (line < a.length && line < b.length && a[line] === b[line]) line++;
    console.error(
      `clients/typescript/src/schema.d.ts is stale against openapi/openapi.json (first difference at line ${line + 1}:`,
    );
    console.error(`  committed: ${a[line] ?? "(end of file)"}`);
    console.error(`  generated: ${b[line] ?? "(end of file)"})`);
    console.error("run `npm run generate` in clients/typescript and commit src/schema.d.ts");
    process.exit(1);
  }
  console.log(`${fileURLToPath(OUT)} is up to date with openapi/openapi.json`);
} else {
  writeFileSync(OUT, fresh, "utf8");
  console.log(`wrote ${fileURLToPath(OUT)}`);
}
