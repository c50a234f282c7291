// The playground in a real browser: Debian's Chromium, driven by playwright-core, against the
// live server at ARBITER_URL (scripts/browser-test.sh starts it). It loads /playground, loads
// the README's cover example (RULES.md map M2), checks the grid and the answer, drags the orc
// with the mouse and moves it with the keyboard, checks each new cover degree against RULES.md
// and that the server's drawing changed, switches to French and reads a French trace step and the page's French labels; then
// loads README's Universal VTT room through the file input (its grid, walls and warnings),
// places an archer and an orc past its pillar (total cover: RULES.md rule 7, in the cover question
// and the whole scene's), and loads a bare Foundry scene.
// Any request to a host other than this machine's loopback, any console error and any page
// error fail the run. A screenshot goes to ARBITER_SCREENSHOT (default target/playground.png).
//
// Last line: `browser: N passed, M failed`; exit status 0 only when M is 0.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const BASE = process.env.ARBITER_URL ?? "http://127.0.0.1:8080";
const SHOT = process.env.ARBITER_SCREENSHOT ?? "target/playground.png";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** How long one expected state may take to appear (a debounced question and its answer). */
const WAIT_MS = 15_000;
/** The import fixtures, loaded through the page's file input. */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "import");

const offHost = [];
const consoleErrors = [];
let passed = 0;
let failed = 0;

function loopback(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === "data:") return true;
  if (u.protocol === "blob:") return loopback(u.pathname);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passed++;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function expect(ok, message) {
  if (!ok) throw new Error(message);
}

/** Waits until the answer's fact `key` has the value `value` (the raw JSON value). */
async function fact(page, key, value) {
  await page.waitForSelector(`#facts [data-fact="${key}"][data-value="${value}"]`, { timeout: WAIT_MS });
}

async function facts(page) {
  return page.$$eval("#facts [data-fact]", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.fact, r.dataset.value])));
}

async function digest(page) {
  return page.getAttribute("#drawing", "data-digest");
}

/** Waits for a drawing other than `before`. */
async function newDrawing(page, before) {
  await page.waitForFunction(
    (old) => {
      const d = document.getElementById("drawing").dataset.digest;
      return d && d !== old;
    },
    before,
    { timeout: WAIT_MS },
  );
  return digest(page);
}

/** The page coordinates of the centre of square (x, y) of the board. */
async function squareCentre(page, x, y) {
  return page.evaluate(
    ([x, y]) => {
      const svg = document.getElementById("grid");
      const s = Number(svg.dataset.cell);
      const p = svg.createSVGPoint();
      p.x = (x + 0.5) * s;
      p.y = (y + 0.5) * s;
      const q = p.matrixTransform(svg.getScreenCTM());
      return { x: q.x, y: q.y };
    },
    [x, y],
  );
}

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking"],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 950 } });
  // Everything not on this machine's loopback is refused and fails the run.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (loopback(url)) return route.continue();
    offHost.push(url);
    return route.abort("blockedbyclient");
  });
  context.on("request", (req) => {
    if (!loopback(req.url())) offHost.push(req.url());
  });
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => consoleErrors.push(`page error: ${err.message}`));
  const questions = [];
  page.on("response", (res) => {
    if (res.url().endsWith("/v1/cover")) questions.push(res.status());
  });

  let drawing;
  await check("GET /playground loads with its script and style", async () => {
    const res = await page.goto(`${BASE}/playground`);
    expect(res && res.status() === 200, `status ${res && res.status()}`);
    expect((res.headers()["content-security-policy"] ?? "").includes("default-src 'self'"), "no CSP");
    await page.waitForSelector("#example option[value=cover-m2]", { state: "attached", timeout: WAIT_MS });
    const background = await page.$eval("header", (h) => getComputedStyle(h).backgroundColor);
    expect(background !== "rgba(0, 0, 0, 0)", "the style sheet did not apply");
  });

  await check("the README cover example (RULES.md M2): grid drawn, three-quarters cover, +5", async () => {
    await page.selectOption("#example", "cover-m2");
    await page.waitForSelector("#grid", { timeout: WAIT_MS });
    const solid = await page.$$eval("#grid .sq-solid", (r) => r.length);
    const tokens = await page.$$eval("#grid .token", (t) => t.map((g) => g.dataset.id));
    expect(solid === 3, `the wall column is 3 solid squares, drawn ${solid}`);
    expect(tokens.join() === "archer,orc", `tokens ${tokens}`);
    // M2, target (4, 3): from ⟨0,0⟩ the lines to ⟨4,3⟩, ⟨5,3⟩ and ⟨5,4⟩ cross the wall: 3 of 4.
    await fact(page, "degree", "three_quarters");
    const f = await facts(page);
    expect(f.ac_bonus === "5" && f.dex_save_bonus === "5", `facts ${JSON.stringify(f)}`);
    const steps = await page.$$eval("#trace li", (li) => li.map((l) => l.textContent));
    expect(steps.some((t) => t.includes("dnd5e.cover.grid")), `trace ${JSON.stringify(steps)}`);
    drawing = await newDrawing(page, "");
    const rays = await page.$$eval("#grid .ray", (r) => r.length);
    expect(rays === 4, `the answer's 4 lines on the board, drawn ${rays}`);
  });

  await check("drag the orc to (5, 3) with the mouse: total cover, a new drawing", async () => {
    const from = await squareCentre(page, 4, 3);
    const to = await squareCentre(page, 5, 3);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
    // M2, target (5, 3): every line from every corner of (0, 0) crosses the wall column.
    await fact(page, "degree", "total");
    const f = await facts(page);
    expect(f.can_be_targeted === "false" && !("ac_bonus" in f), `facts ${JSON.stringify(f)}`);
    const label = await page.getAttribute('#grid [data-id="orc"]', "aria-label");
    expect(label.includes("at 5, 3"), `orc's label ${label}`);
    drawing = await newDrawing(page, drawing);
  });

  await check("keyboard: Tab from the archer to the orc, arrows to (4, 4): half cover, +2", async () => {
    await page.focus('#grid [data-id="archer"]');
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.id);
    expect(focused === "orc", `Tab focused ${focused}`);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowDown");
    // M2, target (4, 4): only the line to ⟨5,4⟩ crosses (3, 2); the one to ⟨4,4⟩ touches ⟨3,3⟩.
    await fact(page, "degree", "half");
    const f = await facts(page);
    expect(f.ac_bonus === "2" && f.dex_save_bonus === "2", `facts ${JSON.stringify(f)}`);
    const still = await page.evaluate(() => document.activeElement && document.activeElement.dataset.id);
    expect(still === "orc", `focus after the move: ${still}`);
    drawing = await newDrawing(page, drawing);
  });

  await check("French: the trace in French (5e: half cover is « abri partiel »)", async () => {
    await page.selectOption("#lang", "fr");
    await page.waitForFunction(
      () => [...document.querySelectorAll("#trace li")].some((li) => li.textContent.includes("abri partiel\u00a0: +2 CA")),
      null,
      { timeout: WAIT_MS },
    );
    expect((await page.getAttribute("#answer", "lang")) === "fr", "the answer is not marked lang=fr");
    // The page's own labels follow the language too.
    const labels = await page.evaluate(() => [document.documentElement.lang, document.getElementById("board-title").textContent,
      document.querySelector("#kind option[value=cover]").textContent, document.getElementById("apply").textContent]);
    expect(labels.join("|") === "fr|Grille|Abri|Charger ce JSON", `labels ${JSON.stringify(labels)}`);
    await fact(page, "degree", "half");
  });

  // The Universal VTT room of README's "Importing a map", through the page's file input.
  await check("a Universal VTT file (uvtt-room.dd2vtt): a 10 × 7 grid, its walls, its warnings", async () => {
    const res = await page.goto(`${BASE}/playground`);
    expect(res && res.status() === 200, `status ${res && res.status()}`);
    await page.waitForSelector("#map-file", { state: "attached", timeout: WAIT_MS });
    await page.setInputFiles("#map-file", join(FIXTURES, "uvtt-room.dd2vtt"));
    await page.waitForSelector("#load-status [data-code=open_portal]", { timeout: WAIT_MS });
    const label = await page.getAttribute("#grid", "aria-label");
    expect(label === "grid 10 by 7 squares", `the grid is ${label}`);
    // README: the file's points less its map_origin (3, 5); the room's top wall runs from
    // (4, 6) to (12, 6), the closed door from (12, 7) to (12, 8), the open one at x = 4.
    const walls = await page.$$eval("#grid .wall", (ws) => ws.map((w) => `${w.dataset.kind} ${w.dataset.from} ${w.dataset.to}`));
    for (const wall of ["solid 1,1 9,1", "door_closed 9,2 9,3", "door_open 1,3 1,4", "solid 4,3 5,3"]) {
      expect(walls.includes(wall), `no wall "${wall}" in ${JSON.stringify(walls)}`);
    }
    // Six runs of the room's outline, four sides of the pillar, two portals.
    expect(walls.length === 12, `12 walls expected, drawn ${walls.length}`);
    const warnings = await page.$$eval("#load-status li[data-code]", (li) => li.map((l) => `${l.dataset.code} ${l.dataset.pointer}`));
    for (const w of ["object_walls /objects_line_of_sight", "open_portal /portals/1"]) {
      expect(warnings.includes(w), `warning "${w}" not listed: ${JSON.stringify(warnings)}`);
    }
  });

  await check("the imported room: an archer at (2, 3), an orc at (6, 3), total cover behind the pillar", async () => {
    for (const [id, side, x, y] of [["archer", "party", 2, 3], ["orc", "monsters", 6, 3]]) {
      await page.fill("#new-id", id);
      await page.selectOption("#new-side", side);
      await page.fill("#new-x", String(x));
      await page.fill("#new-y", String(y));
      await page.click("#add-creature");
      await page.waitForSelector(`#grid [data-id="${id}"]`, { timeout: WAIT_MS });
    }
    expect((await page.inputValue("#attacker")) === "archer" && (await page.inputValue("#target")) === "orc", "archer against orc");
    // README "Importing a map": the pillar is four thin walls in the creatures' row; every line
    // crosses it or runs along its north or south face into a corner (RULES.md rule 7), so the
    // orc has total cover and cannot be targeted.
    await fact(page, "degree", "total");
    const f = await facts(page);
    expect(f.can_be_targeted === "false", `facts ${JSON.stringify(f)}`);
    const sent = JSON.parse(await page.textContent("#request"));
    expect(sent.encounter.grid.width === 10 && sent.encounter.grid.walls.length === 12, "the question was not asked on the imported grid");
  });

  await check("the whole scene (/v1/analyze) of the room: archer → orc total cover, the server's drawing", async () => {
    const before = await digest(page);
    await page.selectOption("#kind", "analyze");
    // README "Whole scene": a pair out of reach is judged for a ranged attack, as the cover
    // question above: total cover, no AC bonus shown.
    await page.waitForSelector('#facts [data-fact="pair.archer.orc"][data-value="total"]', { timeout: WAIT_MS });
    const text = await page.textContent('#facts [data-fact="pair.archer.orc"] dd');
    expect(!text.includes("AC") && text.includes("20 ft") && text.includes("ranged"), `archer → orc: ${text}`);
    expect((await page.$$("#facts [data-fact=\"pair.orc.archer\"]")).length === 1, "no orc → archer pair");
    await newDrawing(page, before);
    const caption = await page.textContent("#drawing-caption");
    expect(caption === "POST /v1/analyze with Accept: image/svg+xml", `not the analyze drawing: ${caption}`);
    await page.selectOption("#kind", "cover");
    await fact(page, "degree", "total");
  });

  await check("a bare Foundry scene (foundry-scene.json): the encounter of its tokens", async () => {
    // Whatever the checks before left chosen: its answer is read as a cover question's.
    await page.selectOption("#kind", "cover");
    await page.setInputFiles("#map-file", join(FIXTURES, "foundry-scene.json"));
    // README "Foundry VTT scenes": tokens become creatures by name, those sharing one numbered.
    const expected = ["Valeros", "Ogre", "Goblin 1", "Goblin 2", "Rat", "Bat"];
    await page.waitForFunction(
      (ids) => [...document.querySelectorAll("#grid .token")].map((g) => g.dataset.id).join() === ids.join(),
      expected,
      { timeout: WAIT_MS },
    );
    // 1050 × 800 px of 100 px squares: ceil(10.5) × 8 squares.
    const label = await page.getAttribute("#grid", "aria-label");
    expect(label === "grid 11 by 8 squares", `the grid is ${label}`);
    const warnings = await page.$$eval("#load-status li[data-code]", (li) => li.map((l) => `${l.dataset.code} ${l.dataset.pointer}`));
    expect(warnings.includes("repeated_name /scene/tokens/2"), `warnings ${JSON.stringify(warnings)}`);
    await page.waitForSelector("#facts [data-fact=degree]", { timeout: WAIT_MS });
  });

  await check("every cover question was answered 200", async () => {
    expect(questions.length >= 6 && questions.every((s) => s === 200), `statuses ${questions}`);
  });

  mkdirSync(dirname(SHOT), { recursive: true });
  await page.screenshot({ path: SHOT, fullPage: true });
  console.log(`screenshot: ${SHOT}`);
  await browser.close();

  await check("no request left this machine's loopback", async () => {
    expect(offHost.length === 0, offHost.slice(0, 5).join(", "));
  });
  await check("no console error, no page error", async () => {
    expect(consoleErrors.length === 0, consoleErrors.slice(0, 5).join(" | "));
  });
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
