/**
 * The TypeScript client against a live Arbiter server (`ARBITER_URL`, default
 * http://127.0.0.1:8080): every endpoint of openapi/openapi.json is called through the typed
 * client, every answer is validated with ajv against the schema the document declares for its
 * path, method, status and media type, every example of the document against its schema, and
 * a few answers against the values RULES.md gives (the repository's fixtures).
 *
 *   ARBITER_URL=http://127.0.0.1:8080 npm run test:live
 *
 * `ARBITER_OPENAPI` names another copy of the document to check the answers against.
 *
 * Last line: `ts-client: N passed, M failed`; exit status 0 only when M is 0.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createArbiterClient, type ArbiterClient, type components } from "../src/index.js";
import { Contract, type Json, isJsonMedia } from "./contract.js";

type Schemas = components["schemas"];

const BASE_URL = process.env["ARBITER_URL"] ?? "http://127.0.0.1:8080";
/** The repository root: this file runs as clients/typescript/dist/test/live.js. */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The document the answers are checked against (ARBITER_OPENAPI to try another copy). */
const contract = new Contract(process.env["ARBITER_OPENAPI"] ?? resolve(REPO, "openapi/openapi.json"));
const arbiter: ArbiterClient = createArbiterClient(BASE_URL);

// ---------------------------------------------------------------- bookkeeping
let passed = 0;
let failed = 0;
let failures: string[] = [];
/** `method path` of every call the typed client made, as the document spells them. */
const called = new Set<string>();
let validatedAnswers = 0;

/** Records a failure of the running check. */
function fail(message: string): void {
  failures.push(message);
}

/** Records a failure unless `ok`. */
function expect(ok: boolean, message: string): void {
  if (!ok) fail(message);
}

/** Runs one named check; any failure recorded or thrown in it fails it. */
async function check(name: string, body: () => Promise<void> | void): Promise<void> {
  failures = [];
  try {
    await body();
  } catch (e) {
    // The message and the first frame: enough to find it, short enough to read.
    const where = e instanceof Error ? (e.stack?.split("\n").find((l) => l.trim().startsWith("at ")) ?? "").trim() : "";
    fail(`threw: ${e instanceof Error ? e.message : String(e)} ${where}`);
  }
  if (failures.length === 0) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}`);
    for (const f of failures.slice(0, 20)) console.log(`       ${f}`);
    if (failures.length > 20) console.log(`       ... and ${failures.length - 20} more`);
  }
}

// Every answer the typed client receives is checked against the document, whatever the call.
arbiter.use({
  async onResponse({ request, response, schemaPath }) {
    called.add(`${request.method.toLowerCase()} ${schemaPath}`);
    const body = await response.clone().text();
    const problems = contract.checkAnswer(
      request.method,
      schemaPath,
      response.status,
      response.headers.get("content-type"),
      body,
    );
    validatedAnswers++;
    for (const p of problems) fail(`schema: ${p}`);
    return undefined;
  },
});

// ---------------------------------------------------------------- helpers
/** `actual` holds every field of `expected`, recursively; arrays element by element. */
function subset(actual: Json | undefined, expected: Json, path: string): string[] {
  if (typeof expected === "number") {
    return typeof actual === "number" && Math.abs(actual - expected) < 1e-12
      ? []
      : [`${path}: got ${JSON.stringify(actual)}, expected ${expected}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [`${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
    return expected.flatMap((e, i) => subset(actual[i], e, `${path}/${i}`));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [`${path}: got ${JSON.stringify(actual)}, expected an object`];
    return Object.entries(expected).flatMap(([k, e]) =>
      k in actual ? subset(actual[k], e, `${path}/${k}`) : [`${path}/${k} missing`],
    );
  }
  return actual === expected ? [] : [`${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}

/** A JSON file of the repository. */
function repoJson(path: string): Json {
  return JSON.parse(readFileSync(resolve(REPO, path), "utf8")) as Json;
}

/** A fixture case of tests/fixtures (the RULES.md examples the Rust tests also pin down). */
interface FixtureCase {
  name: string;
  request: Json;
  status?: number;
  expect?: Json;
  pointers?: string[];
  rules?: string[];
  trace_rules?: string[];
}

function fixtures(name: string): FixtureCase[] {
  return repoJson(`tests/fixtures/${name}.json`) as unknown as FixtureCase[];
}

/** The question endpoints (POST, JSON body). */
type QuestionPath =
  | "/v1/range"
  | "/v1/cover"
  | "/v1/flanking"
  | "/v1/concealment"
  | "/v1/attack"
  | "/v1/maneuvers"
  | "/v1/movement"
  | "/v1/initiative"
  | "/v1/analyze";

/** The first request example the document gives for `path`. */
function requestExample(path: QuestionPath): Json {
  const [first] = contract.requestExamples("post", path);
  if (first === undefined) throw new Error(`the document gives no request example for POST ${path}`);
  return first;
}

/** POSTs a JSON body to a question endpoint; the answer as JSON, whatever its status. */
async function ask(path: QuestionPath, body: Json): Promise<{ status: number; json: Json }> {
  const { response, data, error } = await arbiter.POST(path, { body: body as never });
  return { status: response.status, json: (data ?? error ?? null) as unknown as Json };
}

function field(value: Json | undefined, key: string): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value[key] : undefined;
}

function pointersOf(problem: Json): string[] {
  const errors = field(problem, "errors");
  return Array.isArray(errors) ? errors.map((e) => String(field(e, "pointer") ?? "")) : [];
}

function traceRules(answer: Json): string[] {
  const trace = field(answer, "trace");
  return Array.isArray(trace) ? trace.map((s) => String(field(s, "rule"))) : [];
}

/**
 * Posts every case of a fixture file and checks its status, its error pointers, and the
 * expected fields of the answer (of `answer[scope]` when a scope is given), as tests/http does.
 */
async function sweep(path: QuestionPath, file: string, scope: "result" | null): Promise<void> {
  const cases = fixtures(file);
  expect(cases.length > 0, `${file}: no cases`);
  for (const c of cases) {
    const { status, json } = await ask(path, c.request);
    const want = c.status ?? 200;
    if (status !== want) {
      fail(`${c.name}: status ${status}, expected ${want}: ${JSON.stringify(json).slice(0, 300)}`);
      continue;
    }
    if (c.pointers) {
      const got = pointersOf(json);
      expect(
        JSON.stringify(got) === JSON.stringify(c.pointers),
        `${c.name}: pointers ${JSON.stringify(got)}, expected ${JSON.stringify(c.pointers)}`,
      );
      continue;
    }
    if (c.expect !== undefined) {
      const scoped = scope ? field(json, scope) : json;
      for (const p of subset(scoped, c.expect, c.name)) fail(p);
    }
    const rules = traceRules(json);
    for (const rule of [...(c.rules ?? []), ...(c.trace_rules ?? [])])
      expect(rules.includes(rule), `${c.name}: no ${rule} step in the trace`);
  }
}

// ---------------------------------------------------------------- requests
/** RULES.md map M2 (README's first cover example): three of four lines blocked. */
const M2: Schemas["CoverRequest"] = {
  encounter: {
    ruleset: "dnd5e2024",
    grid: { width: 7, height: 5, map: ["...#...", "...#...", "...#...", ".......", "......."] },
    creatures: [
      { id: "archer", side: "party", at: { x: 0, y: 0 } },
      { id: "orc", side: "monsters", at: { x: 4, y: 3 } },
    ],
  },
  attacker: "archer",
  target: "orc",
  attack: "ranged",
};

/** An archer 21 squares east of an orc (the proxy smoke test's request). */
const RANGE_21: Schemas["RangeRequest"] = {
  encounter: {
    ruleset: "pf1e",
    grid: { width: 40, height: 10 },
    creatures: [
      { id: "archer", side: "party", at: { x: 0, y: 0 } },
      { id: "orc", side: "monsters", at: { x: 21, y: 0 } },
    ],
  },
  attacker: "archer",
  target: "orc",
  weapon: { kind: "ranged", increment_ft: 100 },
};

/** pf1e.initiative's example: fighter +1 rolls 14, goblin +6 rolls 9. */
const INITIATIVE_TIE: Schemas["InitiativeRequest"] = {
  encounter: {
    ruleset: "pf1e",
    grid: { width: 10, height: 10 },
    creatures: [
      { id: "fighter", side: "party", at: { x: 0, y: 0 }, stats: { initiative_bonus: 1 } },
      { id: "goblin", side: "monsters", at: { x: 5, y: 0 }, stats: { initiative_bonus: 6 } },
    ],
  },
  dice: { mode: "given", rolls: { initiative: { fighter: [14], goblin: [9] } } },
};

// ---------------------------------------------------------------- checks
async function main(): Promise<void> {
  console.log(`ts-client: ${BASE_URL}`);
  // One clear line, rather than every check failing on its own, when nothing listens there.
  try {
    await fetch(`${BASE_URL}/healthz`, { signal: AbortSignal.timeout(5000) });
  } catch (e) {
    console.log(`ts-client: no server at ${BASE_URL} (${e instanceof Error ? e.message : String(e)}); set ARBITER_URL`);
    process.exitCode = 1;
    return;
  }

  await check("every example of the document satisfies its schema", () => {
    const examples = contract.examples();
    expect(examples.length > 0, "the document has no examples");
    for (const e of examples) for (const p of contract.check(e.schemaPointer, e.value, e.where)) fail(p);
    console.log(`       ${examples.length} examples`);
  });

  await check("every question answers its request example with 200", async () => {
    const paths: QuestionPath[] = [
      "/v1/range",
      "/v1/cover",
      "/v1/flanking",
      "/v1/concealment",
      "/v1/attack",
      "/v1/maneuvers",
      "/v1/movement",
      "/v1/initiative",
      "/v1/analyze",
    ];
    for (const path of paths) {
      const { status, json } = await ask(path, requestExample(path));
      expect(status === 200, `POST ${path}: status ${status}: ${JSON.stringify(json).slice(0, 300)}`);
      expect(traceRules(json).length > 0, `POST ${path}: an empty trace`);
    }
  });

  await check("cover: RULES.md M2 (README) is three-quarters cover, +5 AC, +5 Dex saves", async () => {
    const { data, error } = await arbiter.POST("/v1/cover", { body: M2 });
    if (!data) return fail(`no answer: ${JSON.stringify(error)}`);
    expect(data.result.degree === "three_quarters", `degree ${data.result.degree}`);
    expect(data.result.ac_bonus === 5, `ac_bonus ${data.result.ac_bonus}`);
    expect(data.result.dex_save_bonus === 5, `dex_save_bonus ${data.result.dex_save_bonus}`);
    expect(data.result.lines.length === 4, `${data.result.lines.length} lines from the best corner`);
    expect(data.result.lines.filter((l) => l.blocked).length === 3, "3 of the 4 lines blocked");
  });

  await check("import: the README's Universal VTT room, then the same file inline in a question", async () => {
    const file = repoJson("tests/fixtures/import/uvtt-room.dd2vtt") as unknown as Schemas["UvttFile"];
    const { data, error } = await arbiter.POST("/v1/import/uvtt", { body: file });
    if (!data) return fail(`no answer: ${JSON.stringify(error)}`);
    // Each side from its own value: 10 × 7, not 10 × 10.
    expect(data.grid.width === 10 && data.grid.height === 7, `${data.grid.width} × ${data.grid.height}`);
    expect((data.grid.walls ?? []).length === 12, `${(data.grid.walls ?? []).length} walls`);
    expect(data.grid.light === "dim", `light ${data.grid.light}`);
    expect(
      data.warnings.some((w) => w.code === "open_portal" && w.pointer === "/portals/1"),
      `warnings ${JSON.stringify(data.warnings)}`,
    );
    const question = (grid: Schemas["EncounterGridIn"]): Schemas["CoverRequest"] => ({
      encounter: {
        ruleset: "dnd5e2014",
        grid,
        creatures: [
          { id: "archer", side: "party", at: { x: 2, y: 3 } },
          { id: "orc", side: "monsters", at: { x: 6, y: 3 } },
        ],
      },
      attacker: "archer",
      target: "orc",
      attack: "ranged",
    });
    // The pillar is four thin walls in the creatures' row: every line crosses it or runs along its
    // north or south face into a corner (RULES.md grid.line.blocked rule 7): total cover.
    for (const grid of [data.grid, { uvtt: file }]) {
      const cover = await arbiter.POST("/v1/cover", { body: question(grid) });
      expect(cover.data?.result.degree === "total", `degree ${cover.data?.result.degree}`);
      expect(cover.data?.result.can_be_targeted === false, `can_be_targeted ${cover.data?.result.can_be_targeted}`);
    }
  });

  await check("import: the README's Foundry cellar, then a question on the encounter it makes", async () => {
    // 600 × 300 px in squares of 100 px, padding 0.25: ceil(150 / 100) = 2 squares (200 px)
    // at the sides, ceil(75 / 100) = 1 square (100 px) above. The secret door from (500, 100)
    // to (500, 400) is x = 3 from y = 0 to 3; the archer (200, 200) is on (0, 1), the orc
    // (600, 200) on (4, 1).
    const body: Schemas["FoundryImportRequest"] = {
      scene: {
        width: 600,
        height: 300,
        padding: 0.25,
        grid: { type: 1, size: 100, distance: 5, units: "ft" },
        walls: [{ c: [500, 100, 500, 400], move: 20, sight: 20, light: 20, sound: 20, door: 2, ds: 0 }],
        tokens: [
          { _id: "tA", name: "archer", x: 200, y: 200, width: 1, height: 1, disposition: 1 },
          { _id: "tO", name: "orc", x: 600, y: 200, width: 1, height: 1, disposition: -1 },
        ],
      },
      creatures: [{ token: "orc", stats: { ac: 13 } }],
    };
    const { data, error } = await arbiter.POST("/v1/import/foundry", { body });
    if (!data) return fail(`no answer: ${JSON.stringify(error)}`);
    const grid = data.encounter.grid;
    expect(grid.width === 6 && grid.height === 3, `${grid.width} × ${grid.height}`);
    const door = (grid.walls ?? [])[0];
    expect(door?.kind === "door_closed" && door.from.x === 3 && door.to.y === 3, `walls ${JSON.stringify(grid.walls)}`);
    const at = data.encounter.creatures.map((c) => `${c.id}@${c.at.x},${c.at.y}`).join(" ");
    expect(at === "archer@0,1 orc@4,1", at);
    expect(
      data.warnings.some((w) => w.code === "secret_door"),
      `warnings ${JSON.stringify(data.warnings)}`,
    );
    // Every line from the archer to the orc crosses the closed door: total cover.
    const cover = await arbiter.POST("/v1/cover", {
      body: { encounter: data.encounter, attacker: "archer", target: "orc" },
    });
    expect(cover.data?.result.degree === "total", `degree ${cover.data?.result.degree}`);
  });

  await check("cover: every RULES.md fixture (tests/fixtures/cover)", () =>
    sweep("/v1/cover", "cover/cases", "result"),
  );
  await check("range: every fixture", () => sweep("/v1/range", "range/cases", "result"));
  await check("concealment: every fixture", () => sweep("/v1/concealment", "concealment/cases", "result"));
  await check("flanking: every fixture", () => sweep("/v1/flanking", "flanking/cases", "result"));
  await check("attack: every fixture", () => sweep("/v1/attack", "attack/cases", null));
  await check("maneuvers: every fixture", () => sweep("/v1/maneuvers", "maneuver/cases", null));
  await check("maneuvers: every charge fixture", () => sweep("/v1/maneuvers", "maneuver/charge", null));
  await check("movement: every fixture", () => sweep("/v1/movement", "movement/cases", "result"));
  await check("initiative: every fixture", () => sweep("/v1/initiative", "initiative/cases", null));

  await check("range: the archer 21 squares from the orc is 105 ft away (5 ft a square)", async () => {
    const { data } = await arbiter.POST("/v1/range", { body: RANGE_21 });
    expect(data?.result.distance_ft === 105, `distance_ft ${data?.result.distance_ft}`);
    expect(data?.result.distance_squares === 21, `distance_squares ${data?.result.distance_squares}`);
  });

  await check(
    "initiative: PF1 fighter (+1, rolls 14) and goblin (+6, rolls 9) tie at 15, the goblin first",
    async () => {
      const { data } = await arbiter.POST("/v1/initiative", { body: INITIATIVE_TIE });
      const order = data?.result.order ?? [];
      expect(
        order.map((e) => `${e.creature}=${e.total}`).join(",") === "goblin=15,fighter=15",
        `order ${JSON.stringify(order.map((e) => [e.creature, e.total]))}`,
      );
    },
  );

  await check("analyze: one pair per ordered attacker → target of opposing sides", async () => {
    const body = requestExample("/v1/analyze") as unknown as Schemas["AnalyzeRequest"];
    const side = new Map(body.encounter.creatures.map((c) => [c.id, c.side]));
    const { data } = await arbiter.POST("/v1/analyze", { body });
    const pairs = data?.result.pairs ?? [];
    const creatures = body.encounter.creatures;
    const opposing = creatures
      .flatMap((a) => creatures.filter((t) => t.side !== a.side).map((t) => `${a.id}→${t.id}`))
      .sort();
    expect(opposing.length > 0, "the example has no opposing sides");
    expect(
      JSON.stringify(pairs.map((p) => `${p.attacker}→${p.target}`).sort()) === JSON.stringify(opposing),
      `pairs ${JSON.stringify(pairs.map((p) => [p.attacker, p.target]))}`,
    );
    for (const p of pairs) expect(side.get(p.attacker) !== side.get(p.target), `${p.attacker}→${p.target} on one side`);
  });

  await check("Accept: image/svg+xml draws the cover and the movement", async () => {
    const cover = await arbiter.POST("/v1/cover", {
      body: M2,
      headers: { Accept: "image/svg+xml" },
      parseAs: "text",
    });
    const movement = await arbiter.POST("/v1/movement", {
      body: requestExample("/v1/movement") as unknown as Schemas["MovementRequest"],
      headers: { Accept: "image/svg+xml" },
      parseAs: "text",
    });
    for (const [name, r] of [
      ["cover", cover],
      ["movement", movement],
    ] as const) {
      expect(r.response.status === 200, `${name}: status ${r.response.status}`);
      expect(
        (r.response.headers.get("content-type") ?? "").startsWith("image/svg+xml"),
        `${name}: content-type ${r.response.headers.get("content-type")}`,
      );
      const svg = r.data ?? "";
      expect(
        /^(<\?xml[^>]*>\s*)?<svg[\s>]/.test(svg) && svg.trimEnd().endsWith("</svg>"),
        `${name}: not an SVG document: ${svg.slice(0, 80)}`,
      );
    }
  });

  await check("Accept-Language: fr answers the trace in French", async () => {
    const en = await arbiter.POST("/v1/cover", { body: M2 });
    const fr = await arbiter.POST("/v1/cover", { body: M2, params: { header: { "Accept-Language": "fr" } } });
    const enTrace = en.data?.trace ?? [];
    const frTrace = fr.data?.trace ?? [];
    expect(
      frTrace.length > 0 && JSON.stringify(frTrace.map((s) => s.rule)) === JSON.stringify(enTrace.map((s) => s.rule)),
      "the same rules in both languages",
    );
    frTrace.forEach((s, i) => expect(s.text !== enTrace[i]?.text, `${s.rule}: the same text in fr and en: ${s.text}`));
    // seed 002 « Abri »: the degrees step names the armour class "CA" (AC in English).
    const degrees = (trace: typeof frTrace) => trace.find((s) => s.rule === "dnd5e.cover.degrees")?.text ?? "";
    expect(
      /\bCA\b/.test(degrees(frTrace)) && /\babri\b/i.test(degrees(frTrace)),
      `fr degrees step: ${degrees(frTrace)}`,
    );
    expect(/\bAC\b/.test(degrees(enTrace)), `en degrees step: ${degrees(enTrace)}`);
  });

  await check("422: a creature outside the grid is a problem+json pointing at its square", async () => {
    const outside = structuredClone(M2);
    const orc = outside.encounter.creatures[1];
    if (!orc) return fail("M2 has fewer than 2 creatures");
    const grid = outside.encounter.grid;
    if (!("width" in grid)) return fail("M2's grid is a grid, not a file");
    orc.at = { x: grid.width, y: 0 };
    const { response, error } = await arbiter.POST("/v1/cover", { body: outside });
    expect(response.status === 422, `status ${response.status}`);
    expect(
      response.headers.get("content-type") === "application/problem+json",
      `content-type ${response.headers.get("content-type")}`,
    );
    expect(error?.status === 422, `problem status ${error?.status}`);
    const pointers = (error?.errors ?? []).map((e) => e.pointer);
    expect(pointers.includes("/encounter/creatures/1/at"), `pointers ${JSON.stringify(pointers)}`);
  });

  await check("415: a body that is not application/json", async () => {
    const { response, error } = await arbiter.POST("/v1/range", {
      body: requestExample("/v1/range") as unknown as Schemas["RangeRequest"],
      bodySerializer: (b) => JSON.stringify(b),
      headers: { "Content-Type": "text/plain" },
    });
    expect(response.status === 415, `status ${response.status}`);
    expect(error?.status === 415, `problem status ${error?.status}`);
  });

  await check("400: a body that is not JSON", async () => {
    const { response, error } = await arbiter.POST("/v1/flanking", {
      body: requestExample("/v1/flanking") as unknown as Schemas["FlankingRequest"],
      bodySerializer: () => '{"encounter": ',
    });
    expect(response.status === 400, `status ${response.status}`);
    expect(error?.status === 400, `problem status ${error?.status}`);
  });

  await check("413: a body over the 1 MiB limit", async () => {
    const { response, error } = await arbiter.POST("/v1/concealment", {
      body: requestExample("/v1/concealment") as unknown as Schemas["ConcealmentRequest"],
      bodySerializer: () => " ".repeat(1536 * 1024),
    });
    expect(response.status === 413, `status ${response.status}`);
    expect(error?.status === 413, `problem status ${error?.status}`);
  });

  await check("404: an unknown path is a problem document", async () => {
    // Not an endpoint of the document, so not through the typed client.
    const res = await fetch(`${BASE_URL}/v1/no-such-question`);
    const media = res.headers.get("content-type") ?? "";
    expect(res.status === 404, `status ${res.status}`);
    expect(isJsonMedia(media) && media.startsWith("application/problem+json"), `content-type ${media}`);
    const problem = (await res.json()) as Json;
    for (const p of contract.checkComponent("Problem", problem, "404 body")) fail(p);
    expect(field(problem, "status") === 404, `problem status ${JSON.stringify(field(problem, "status"))}`);
  });

  await check("GET /v1/rulesets lists the five rulesets", async () => {
    const { data } = await arbiter.GET("/v1/rulesets");
    const ids = (data?.rulesets ?? []).map((r) => r.id).sort();
    expect(
      JSON.stringify(ids) === JSON.stringify(["dnd5e2014", "dnd5e2024", "hb3d", "pf1e", "sf1e"]),
      `ids ${JSON.stringify(ids)}`,
    );
  });

  await check(
    "GET /v1/rules: every rule the cover answer cites is in the catalog, summarised in en and fr",
    async () => {
      const { data } = await arbiter.GET("/v1/rules");
      const rules = new Map((data?.rules ?? []).map((r) => [r.id, r]));
      const cover = await ask("/v1/cover", M2 as unknown as Json);
      const cited = traceRules(cover.json);
      expect(cited.length > 0, "the cover answer cites no rule");
      for (const id of cited) {
        const rule = rules.get(id);
        expect(
          rule !== undefined && rule.summary_en.length > 0 && rule.summary_fr.length > 0,
          `${id}: ${JSON.stringify(rule)}`,
        );
      }
    },
  );

  await check("GET /healthz and /readyz answer ok", async () => {
    const health = await arbiter.GET("/healthz");
    const ready = await arbiter.GET("/readyz");
    expect(health.data?.status === "ok", `healthz ${JSON.stringify(health.data)}`);
    expect(
      ready.response.status === 200 && ready.data?.status === "ok",
      `readyz ${ready.response.status} ${JSON.stringify(ready.data)}`,
    );
  });

  await check("GET /metrics counts this run's POST /v1/cover answers", async () => {
    const { data, response } = await arbiter.GET("/metrics", { parseAs: "text" });
    expect(response.status === 200, `status ${response.status}`);
    const line = (data ?? "")
      .split("\n")
      .find((l) => l.startsWith('arbiter_http_requests_total{method="POST",route="/v1/cover",status="200"}'));
    const count = Number(line?.split(" ").pop());
    // At least the cover fixtures, the example, M2, the SVG, the two languages and the catalog check.
    const atLeast = fixtures("cover/cases").length + 6;
    expect(count >= atLeast, `POST /v1/cover 200 counted ${line ?? "nowhere"}, expected at least ${atLeast}`);
  });

  await check("GET /playground is the page, from this server only (CSP)", async () => {
    const { data, response } = await arbiter.GET("/playground", { parseAs: "text" });
    expect(response.status === 200, `status ${response.status}`);
    expect((response.headers.get("content-type") ?? "").startsWith("text/html"), "not text/html");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp.includes("default-src 'self'"), `CSP ${csp}`);
    expect((data ?? "").includes("playground/playground.js"), "the page does not load its script");
  });

  await check("every endpoint of the document was called, and only those", () => {
    const documented = contract.endpoints();
    const missing = [...documented].filter((e) => !called.has(e));
    const extra = [...called].filter((e) => !documented.has(e));
    expect(missing.length === 0, `never called: ${missing.join(", ")} (add a check for each new endpoint)`);
    expect(extra.length === 0, `called but not in the document: ${extra.join(", ")}`);
    console.log(`       ${documented.size} endpoints, ${validatedAnswers} answers validated against the document`);
  });

  console.log(`ts-client: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
