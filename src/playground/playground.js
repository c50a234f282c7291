// Arbiter playground: hand-written, no framework, no build step. It asks only the server that
// served it (relative URLs; the Content-Security-Policy forbids any other host and inline
// scripts). State: one encounter, the question's choices; every change re-asks, debounced, and
// an answer that arrives after a newer question was sent is dropped.
"use strict";

(() => {
  // ------------------------------------------------------------------ examples (README.md)
  const EXAMPLES = [
    {
      id: "cover-m2",
      name: "Cover: archer past a wall corner (5e 2024, RULES.md M2)",
      kind: "cover",
      body: {
        encounter: {
          ruleset: "dnd5e2024",
          grid: { width: 7, height: 5, map: ["...#...", "...#...", "...#...", ".......", "......."] },
          creatures: [
            { id: "archer", side: "party", at: { x: 0, y: 0 } },
            { id: "orc", side: "monsters", at: { x: 4, y: 3 } },
          ],
        },
        attacker: "archer", target: "orc", attack: "ranged",
      },
    },
    {
      id: "cover-pf1-ogre",
      name: "Cover: a goblin and a low wall before a Large ogre (PF1)",
      kind: "cover",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: {
            width: 12, height: 6,
            map: ["............", "....#.......", "....#.......", "............", "............", "............"],
            walls: [{ from: { x: 8, y: 2 }, to: { x: 8, y: 5 }, kind: "low" }],
          },
          creatures: [
            { id: "archer", side: "party", at: { x: 1, y: 3 } },
            { id: "goblin", side: "monsters", at: { x: 5, y: 3 }, size: "small" },
            { id: "ogre", side: "monsters", at: { x: 9, y: 3 }, size: "large" },
          ],
        },
        attacker: "archer", target: "ogre",
      },
    },
    {
      id: "cover-area",
      name: "Cover from an area's origin behind a pillar (PF1)",
      kind: "cover",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: { width: 10, height: 5, map: ["..........", "....#.....", "....#.....", "..........", ".........."] },
          creatures: [
            { id: "wizard", side: "party", at: { x: 0, y: 0 } },
            { id: "orc", side: "monsters", at: { x: 6, y: 2 } },
          ],
        },
        attacker: "wizard", target: "orc", attack: "area", origin: { x: 2, y: 4 }, spread: false,
      },
    },
    {
      id: "concealment-torch",
      name: "Concealment: an orc in a torch's dim light (PF1)",
      kind: "concealment",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: { width: 12, height: 2, light: "darkness", lights: [{ at: { x: 0.5, y: 0.5 }, bright_ft: 20, dim_ft: 40 }] },
          creatures: [
            { id: "archer", side: "party", at: { x: 0, y: 1 } },
            { id: "orc", side: "monsters", at: { x: 6, y: 0 } },
          ],
        },
        attacker: "archer", target: "orc",
      },
    },
    {
      id: "flanking-m9",
      name: "Flanking: rogue and fighter around an orc (PF1, RULES.md M9)",
      kind: "flanking",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: { width: 8, height: 8 },
          creatures: [
            { id: "rogue", side: "party", at: { x: 4, y: 5 } },
            { id: "orc", side: "monsters", at: { x: 5, y: 5 } },
            { id: "fighter", side: "party", at: { x: 6, y: 5 } },
            { id: "cleric", side: "party", at: { x: 6, y: 6 } },
          ],
        },
        attacker: "rogue", target: "orc",
      },
    },
    {
      id: "attack-5e",
      name: "Attack: +5 against AC 15 (5e 2024)",
      kind: "attack",
      body: {
        encounter: {
          ruleset: "dnd5e2024",
          grid: { width: 10, height: 3 },
          creatures: [
            { id: "archer", side: "party", at: { x: 0, y: 1 }, stats: { attack_bonus: 5 } },
            { id: "orc", side: "monsters", at: { x: 6, y: 1 }, stats: { ac: 15 } },
          ],
        },
        attacker: "archer", target: "orc",
        weapon: { kind: "ranged", normal_ft: 150, long_ft: 600 },
        dice: { mode: "odds" },
      },
    },
    {
      id: "attack-fog",
      name: "Attack through fog (PF1, +4 against AC 18)",
      kind: "attack",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: { width: 8, height: 3, map: ["........", "...~....", "........"] },
          creatures: [
            { id: "archer", side: "party", at: { x: 0, y: 1 }, stats: { attack_bonus: 4 } },
            { id: "orc", side: "monsters", at: { x: 6, y: 1 }, stats: { ac: 18 } },
          ],
        },
        attacker: "archer", target: "orc", weapon: { kind: "ranged", increment_ft: 100 }, dice: { mode: "odds" },
      },
    },
    {
      id: "range-pf1",
      name: "Range: 105 ft with a 100 ft increment (PF1)",
      kind: "range",
      body: {
        encounter: {
          ruleset: "pf1e",
          grid: { width: 40, height: 10 },
          creatures: [
            { id: "archer", side: "party", at: { x: 0, y: 0 } },
            { id: "orc", side: "monsters", at: { x: 21, y: 0 } },
          ],
        },
        attacker: "archer", target: "orc", weapon: { kind: "ranged", increment_ft: 100 },
      },
    },
  ];

  /** The fields of the answer worth a glance, per question, in order. */
  const FACTS = {
    cover: ["degree", "ac_bonus", "reflex_bonus", "dex_save_bonus", "save_bonus", "attack_modifier", "can_be_targeted", "soft", "corner", "in_reach"],
    concealment: ["degree", "miss_chance", "roll_mode", "attacker_sees_target", "target_sees_attacker", "target_light", "line_of_sight"],
    flanking: ["flanked", "attack_bonus", "advantage", "flankers", "in_force"],
    range: ["distance_ft", "band", "increment", "modifier", "roll_mode", "allowed", "max_ft"],
    attack: ["roll_mode", "attack_bonus", "target_number", "miss_chance", "automatic_miss", "hit", "critical", "natural"],
  };
  const ODDS = ["hit", "critical", "miss", "concealment_miss"];
  /** The answer's labels in French (the answer panel follows the language of the answer). */
  const FR = {
    degree: "degré", ac_bonus: "bonus de CA", reflex_bonus: "bonus de Réflexes", dex_save_bonus: "bonus aux JS de Dextérité",
    save_bonus: "bonus aux sauvegardes", attack_modifier: "modificateur d'attaque", can_be_targeted: "peut être ciblé",
    soft: "abri mou (créatures)", corner: "coin", in_reach: "à portée d'allonge", miss_chance: "chance de rater (%)",
    roll_mode: "mode de jet", attacker_sees_target: "l'attaquant voit la cible", target_sees_attacker: "la cible voit l'attaquant",
    target_light: "lumière sur la cible", line_of_sight: "ligne de vue", flanked: "pris en tenaille", attack_bonus: "bonus d'attaque",
    advantage: "avantage", flankers: "avec", in_force: "règle en vigueur", distance_ft: "distance (ft)", band: "tranche",
    increment: "facteur de portée", modifier: "modificateur", allowed: "permis", max_ft: "maximum (ft)",
    target_number: "nombre à atteindre", automatic_miss: "échec automatique", hit: "touche", critical: "critique",
    natural: "dé naturel", miss: "raté", concealment_miss: "raté par camouflage",
  };
  /** The questions whose answer this server may draw (`Accept: image/svg+xml`). */
  const MAY_DRAW = new Set(["cover", "concealment", "flanking", "analyze"]);
  const SQUARES = { fine: 1, diminutive: 1, tiny: 1, small: 1, medium: 1, large: 2, huge: 3, gargantuan: 4, colossal: 6 };
  const TERRAIN = { "#": "solid", "=": "low", "~": "concealing", "%": "opaque", ":": "difficult", w: "water" };
  const LIGHT = { b: "bright", d: "dim", n: "dark" };
  const DEBOUNCE_MS = 150;
  const SVG_NS = "http://www.w3.org/2000/svg";

  const $ = (id) => document.getElementById(id);
  const el = {
    example: $("example"), json: $("json"), apply: $("apply"), file: $("map-file"), format: $("map-format"),
    loadStatus: $("load-status"), kind: $("kind"), attacker: $("attacker"), target: $("target"), lang: $("lang"),
    attackKind: $("attack-kind"), originX: $("origin-x"), originY: $("origin-y"), weapon: $("weapon"),
    board: $("board"), boardStatus: $("board-status"), answer: $("answer"), status: $("answer-status"),
    problem: $("problem"), facts: $("facts"), drawing: $("drawing"), drawingImg: $("drawing-img"),
    drawingCaption: $("drawing-caption"), trace: $("trace"), request: $("request"), raw: $("raw"),
    newId: $("new-id"), newSide: $("new-side"), newSize: $("new-size"), newX: $("new-x"), newY: $("new-y"), add: $("add-creature"),
  };

  const state = {
    encounter: null,
    /** Fields of the loaded question kept as they came (`spread`, `dice`, `situational`). */
    extras: {},
    focused: null,
    seq: 0,
    controller: null,
    timer: 0,
    lastAnswer: null,
    /** Questions whose endpoint answered JSON to `Accept: image/svg+xml`: not asked again. */
    drawsNot: new Set(),
    drawingUrl: null,
    dragging: false,
  };

  // ------------------------------------------------------------------ small helpers
  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function clone(v) {
    return JSON.parse(JSON.stringify(v));
  }

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  function lang() {
    return el.lang.value === "fr" ? "fr" : "en";
  }

  /** A fraction "a/b" as a percentage with two decimals, in the page's language. */
  function percent(fraction) {
    const m = /^(\d+)\/(\d+)$/.exec(String(fraction));
    if (!m || Number(m[2]) === 0) return "";
    const value = (100 * Number(m[1])) / Number(m[2]);
    return new Intl.NumberFormat(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value) +
      (lang() === "fr" ? "\u00a0%" : " %");
  }

  function show(value) {
    if (Array.isArray(value)) return value.map((v) => (isObject(v) && v.creature ? v.creature : show(v))).join(", ") || "none";
    if (isObject(value) && "x" in value && "y" in value) return `⟨${value.x}, ${value.y}⟩`;
    if (isObject(value)) return JSON.stringify(value);
    if (typeof value === "string") return value.replace(/_/g, " ");
    return String(value);
  }

  /** The load box: lines of text, then a list of items with a pointer (and a code), as the
   * import's warnings and a problem's errors come. */
  function setLoadStatus(lines, items) {
    const nodes = lines.map(([cls, text]) => make("span", { class: cls }, text));
    if (items && items.length) {
      const ul = make("ul", { class: "pointed" });
      for (const item of items) {
        const li = make("li", { class: item.cls, "data-pointer": item.pointer });
        if (item.code) {
          li.dataset.code = item.code;
          li.append(make("code", { class: "code" }, item.code), document.createTextNode(" "));
        }
        li.append(make("code", {}, item.pointer), document.createTextNode(` ${item.text}`));
        ul.appendChild(li);
      }
      nodes.push(ul);
    }
    el.loadStatus.replaceChildren(...nodes);
  }

  // ------------------------------------------------------------------ the encounter
  function creatures() {
    return (state.encounter && Array.isArray(state.encounter.creatures)) ? state.encounter.creatures : [];
  }

  function gridSize() {
    const g = (state.encounter && state.encounter.grid) || {};
    const span = creatures().reduce((m, c) => Math.max(m, (c.at ? Math.max(c.at.x, c.at.y) : 0) + side(c)), 1);
    return { w: Number(g.width) > 0 ? Number(g.width) : span, h: Number(g.height) > 0 ? Number(g.height) : span };
  }

  function side(c) {
    return SQUARES[String(c.size || "medium").toLowerCase()] || 1;
  }

  /** Loads a question (or a bare encounter): the encounter, its choices, then asks. */
  function load(value, kind) {
    if (!isObject(value)) throw new Error("expected a JSON object");
    const question = isObject(value.encounter) ? value : { encounter: value };
    const enc = question.encounter;
    if (!Array.isArray(enc.creatures)) throw new Error("the encounter has no creatures array");
    state.encounter = clone(enc);
    state.extras = {};
    for (const k of ["spread", "dice", "situational"]) if (k in question) state.extras[k] = clone(question[k]);
    if (kind) el.kind.value = kind;
    const attack = question.attack === "melee" || question.attack === "area" ? question.attack : "ranged";
    el.attackKind.value = attack;
    if (isObject(question.origin)) {
      el.originX.value = question.origin.x;
      el.originY.value = question.origin.y;
    }
    el.weapon.value = JSON.stringify(question.weapon || defaultWeapon(), null, 0);
    fillCreatureChoices(question.attacker, question.target);
    el.json.value = JSON.stringify(question, null, 2);
    render();
    schedule();
  }

  function defaultWeapon() {
    const ruleset = String((state.encounter && state.encounter.ruleset) || "");
    return ruleset.startsWith("dnd5e") ? { kind: "ranged", normal_ft: 150, long_ft: 600 } : { kind: "ranged", increment_ft: 100 };
  }

  function fillCreatureChoices(attacker, target) {
    const ids = creatures().map((c) => String(c.id));
    for (const select of [el.attacker, el.target]) {
      select.replaceChildren(...ids.map((id) => make("option", { value: id }, id)));
    }
    el.attacker.value = ids.includes(attacker) ? attacker : ids[0] || "";
    // The attacker is its own target only while it is alone.
    const other = ids.find((id) => id !== el.attacker.value);
    el.target.value = ids.includes(target) && (target !== el.attacker.value || !other) ? target : other || ids[0] || "";
  }

  // ------------------------------------------------------------------ the question
  function question() {
    const kind = el.kind.value;
    // The whole scene: every pair of opposing sides, each judged melee in reach, ranged beyond.
    if (kind === "analyze") return { encounter: state.encounter };
    const body = { encounter: state.encounter, attacker: el.attacker.value, target: el.target.value };
    if (kind === "cover" || kind === "concealment") {
      const attack = el.attackKind.value;
      if (kind === "cover") {
        body.attack = attack;
        if (attack === "area") {
          body.origin = { x: Number(el.originX.value), y: Number(el.originY.value) };
          if ("spread" in state.extras) body.spread = state.extras.spread;
        }
      } else {
        body.attack = attack === "melee" ? "melee" : "ranged";
      }
    }
    if (kind === "range" || kind === "attack") {
      try {
        body.weapon = JSON.parse(el.weapon.value);
      } catch (e) {
        throw new Error(`the weapon is not JSON: ${e.message}`);
      }
    }
    if (kind === "attack") {
      body.dice = state.extras.dice || { mode: "odds" };
      if (state.extras.situational) body.situational = state.extras.situational;
    }
    return body;
  }

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(ask, DEBOUNCE_MS);
  }

  /** Asks the endpoint (JSON, and the drawing where it draws); an older answer is dropped. */
  async function ask() {
    if (!state.encounter) return;
    const seq = ++state.seq;
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    const kind = el.kind.value;
    const pairless = kind === "analyze" ? creatures().length < 2 : !el.attacker.value || !el.target.value || el.attacker.value === el.target.value;
    if (pairless) {
      state.lastAnswer = null;
      el.answer.dataset.state = "idle";
      el.status.textContent = "Not asked: a question needs two creatures, the attacker and the target.";
      el.facts.replaceChildren();
      el.trace.replaceChildren();
      el.problem.replaceChildren();
      el.drawingImg.hidden = true;
      el.drawing.dataset.digest = "";
      el.drawingCaption.textContent = "";
      return;
    }
    let body;
    try {
      body = question();
    } catch (e) {
      showLocalProblem(e.message);
      return;
    }
    el.request.textContent = JSON.stringify(body, null, 2);
    el.answer.dataset.state = "loading";
    el.status.textContent = `Asking POST /v1/${kind}…`;
    const init = (accept) => ({
      method: "POST",
      signal: controller.signal,
      headers: { "Content-Type": "application/json", Accept: accept, "Accept-Language": lang() },
      body: JSON.stringify(body),
    });
    const url = `v1/${kind}`;
    const wantDrawing = MAY_DRAW.has(kind) && !state.drawsNot.has(kind);
    try {
      const [res, pic] = await Promise.all([
        fetch(url, init("application/json")),
        wantDrawing ? fetch(url, init("image/svg+xml")) : Promise.resolve(null),
      ]);
      const answer = await readAnswer(res);
      const drawing = pic && pic.ok && (pic.headers.get("content-type") || "").startsWith("image/svg+xml") ? await pic.text() : null;
      if (pic && pic.ok && drawing === null) state.drawsNot.add(kind);
      if (seq !== state.seq) return;
      showAnswer(kind, res, answer, drawing);
    } catch (e) {
      if (e && e.name === "AbortError") return;
      if (seq !== state.seq) return;
      showLocalProblem(`the server could not be reached: ${e && e.message}`);
    }
  }

  async function readAnswer(res) {
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return { title: `HTTP ${res.status}`, detail: text.slice(0, 500) };
    }
  }

  // ------------------------------------------------------------------ the answer
  function showAnswer(kind, res, answer, drawing) {
    el.raw.textContent = JSON.stringify(answer, null, 2);
    el.answer.dataset.seq = String(state.seq);
    el.answer.setAttribute("lang", lang());
    if (!res.ok) {
      state.lastAnswer = null;
      el.answer.dataset.state = "problem";
      el.status.textContent = `POST /v1/${kind}: ${res.status}`;
      showProblem(answer);
      el.facts.replaceChildren();
      el.trace.replaceChildren();
      showDrawing(null, kind);
      render();
      return;
    }
    state.lastAnswer = { kind, answer };
    el.problem.replaceChildren();
    el.answer.dataset.state = "done";
    el.status.textContent = `POST /v1/${kind}: ${res.status}`;
    showFacts(kind, answer);
    el.trace.replaceChildren(...(answer.trace || []).map((step) => {
      const li = make("li", {}, step.text);
      li.appendChild(make("code", {}, step.rule));
      return li;
    }));
    showDrawing(drawing, kind);
    render();
  }

  function showFacts(kind, answer) {
    const result = answer.result || {};
    const rows = [];
    const add = (key, label, value, raw) => {
      const wrap = make("div", { "data-fact": key, "data-value": raw === undefined ? String(value) : String(raw) });
      wrap.append(make("dt", {}, label), make("dd", {}, value));
      rows.push(wrap);
    };
    const label = (key) => (lang() === "fr" && FR[key]) || key.replace(/_/g, " ");
    for (const key of FACTS[kind] || []) {
      if (key in result) add(key, label(key), show(result[key]), isObject(result[key]) || Array.isArray(result[key]) ? JSON.stringify(result[key]) : result[key]);
    }
    if (kind === "analyze") for (const pair of Array.isArray(result.pairs) ? result.pairs : []) addPair(add, pair);
    const odds = answer.odds;
    if (isObject(odds) && isObject(odds.exact)) {
      for (const key of ODDS) {
        const exact = odds.exact[key];
        if (typeof exact === "string") add(`odds.${key}`, `P(${label(key)})`, `${exact} (${percent(exact)})`, exact);
      }
    }
    el.facts.dataset.kind = kind;
    el.facts.replaceChildren(...rows);
  }

  /** One pair of the whole scene: its cover first (the fact's value), then distance and flanking. */
  function addPair(add, pair) {
    if (!isObject(pair)) return;
    const fr = lang() === "fr";
    const cover = isObject(pair.cover) ? pair.cover : {};
    const parts = [`${show(cover.degree || "?")}${typeof cover.ac_bonus === "number" && cover.ac_bonus ? ` (+${cover.ac_bonus} ${fr ? "CA" : "AC"})` : ""}`];
    parts.push(`${pair.distance_ft} ft`, show(pair.attack || ""));
    if (isObject(pair.flanking) && pair.flanking.flanked) parts.push(fr ? "pris en tenaille" : "flanked");
    if (isObject(pair.concealment) && pair.concealment.miss_chance) parts.push(`${pair.concealment.miss_chance} % ${fr ? "de rater" : "miss"}`);
    add(`pair.${pair.attacker}.${pair.target}`, `${pair.attacker} → ${pair.target}`, parts.join(", "), cover.degree);
  }

  function showProblem(problem) {
    const box = [make("strong", {}, problem.title || "Problem")];
    if (problem.detail) box.push(make("p", {}, problem.detail));
    const errors = Array.isArray(problem.errors) ? problem.errors : [];
    if (errors.length) {
      const ul = make("ul");
      for (const e of errors) {
        const li = make("li");
        li.append(make("code", {}, e.pointer || "/"), document.createTextNode(` ${e.detail || ""}`));
        ul.appendChild(li);
      }
      box.push(ul);
    }
    el.problem.replaceChildren(...box);
  }

  function showLocalProblem(message) {
    el.answer.dataset.state = "error";
    el.status.textContent = "Not asked.";
    el.problem.replaceChildren(make("strong", {}, message));
  }

  /** Shows the server's drawing as an image (an image runs no script), or says there is none. */
  function showDrawing(text, kind) {
    if (state.drawingUrl) URL.revokeObjectURL(state.drawingUrl);
    state.drawingUrl = null;
    if (text === null) {
      el.drawingImg.hidden = true;
      el.drawingImg.removeAttribute("src");
      el.drawing.dataset.digest = "";
      el.drawingCaption.textContent = `The server draws no picture for ${kind} (yet): the grid view shows the scene.`;
      return;
    }
    state.drawingUrl = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
    el.drawingImg.src = state.drawingUrl;
    el.drawingImg.hidden = false;
    const title = /<title>([^<]*)<\/title>/.exec(text);
    el.drawingImg.alt = title ? title[1] : `drawing of the ${kind} answer`;
    el.drawing.dataset.digest = digest(text);
    el.drawingCaption.textContent = `POST /v1/${kind} with Accept: image/svg+xml`;
  }

  /** FNV-1a of a text, in hex: tells one drawing from the next. */
  function digest(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0") + ":" + text.length;
  }

  // ------------------------------------------------------------------ the board
  function cellSize(w, h) {
    return Math.max(8, Math.min(48, Math.floor(Math.min(640 / w, 560 / h))));
  }

  function render() {
    // A drag keeps its element: the board is drawn again when it ends.
    if (!state.encounter || state.dragging) return;
    const { w, h } = gridSize();
    const s = cellSize(w, h);
    const pad = 6;
    const root = svg("svg", {
      viewBox: `${-pad} ${-pad} ${w * s + 2 * pad} ${h * s + 2 * pad + 14}`,
      width: w * s + 2 * pad, role: "group", "aria-label": `grid ${w} by ${h} squares`, id: "grid",
    });
    root.dataset.cell = String(s);
    drawTerrain(root, s, w, h);
    drawWalls(root, s);
    drawLights(root, s);
    drawCreatures(root, s);
    // On top, as the server draws its lines, but transparent to the pointer (drags go through).
    drawAnswer(root, s);
    el.board.replaceChildren(root);
    if (state.focused) {
      const again = root.querySelector(`[data-id="${CSS.escape(state.focused)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function drawTerrain(root, s, w, h) {
    const g = state.encounter.grid || {};
    const layer = svg("g", { class: "terrain" }, root);
    const paint = (rows, table) => {
      if (!Array.isArray(rows)) return;
      rows.slice(0, h).forEach((row, y) => {
        [...String(row)].slice(0, w).forEach((ch, x) => {
          const kind = table[ch];
          if (kind) svg("rect", { x: x * s, y: y * s, width: s, height: s, class: `sq-${kind}` }, layer).appendChild(title(`(${x}, ${y}) ${kind}`));
        });
      });
    };
    paint(g.map, TERRAIN);
    paint(g.light_map, LIGHT);
    if (w * h <= 250000) {
      let d = "";
      for (let x = 0; x <= w; x++) d += `M${x * s} 0V${h * s}`;
      for (let y = 0; y <= h; y++) d += `M0 ${y * s}H${w * s}`;
      svg("path", { d, class: "cell-grid" }, root);
    }
    if (g.uvtt) svg("text", { x: 2, y: h * s + 12, "font-size": 11 }, root).textContent = "walls of the inline Universal VTT grid are not drawn here";
  }

  function drawWalls(root, s) {
    const walls = ((state.encounter.grid || {}).walls) || [];
    const layer = svg("g", { class: "walls" }, root);
    for (const wall of walls) {
      if (!isObject(wall) || !isObject(wall.from) || !isObject(wall.to)) continue;
      const kind = String(wall.kind || "solid");
      svg("line", {
        x1: wall.from.x * s, y1: wall.from.y * s, x2: wall.to.x * s, y2: wall.to.y * s, class: `wall wall-${kind}`,
        "data-kind": kind, "data-from": `${wall.from.x},${wall.from.y}`, "data-to": `${wall.to.x},${wall.to.y}`,
      }, layer)
        .appendChild(title(`${kind.replace(/_/g, " ")} wall`));
    }
  }

  function drawLights(root, s) {
    const lights = ((state.encounter.grid || {}).lights) || [];
    const layer = svg("g", { class: "lights" }, root);
    for (const light of lights) {
      if (!isObject(light) || !isObject(light.at)) continue;
      const cx = light.at.x * s, cy = light.at.y * s;
      const bright = (Number(light.bright_ft) || 0) / 5 * s, dim = (Number(light.dim_ft) || 0) / 5 * s;
      if (dim > 0) svg("circle", { cx, cy, r: dim, class: "light-dim" }, layer);
      if (bright > 0) svg("circle", { cx, cy, r: bright, class: "light-bright" }, layer);
      svg("circle", { cx, cy, r: Math.max(3, s / 6), class: "light-dot" }, layer)
        .appendChild(title(`light: bright ${light.bright_ft || 0} ft, dim ${light.dim_ft || 0} ft`));
    }
  }

  /** The answer's own geometry on the board: cover and concealment lines, threatened squares. */
  function drawAnswer(root, s) {
    const last = state.lastAnswer;
    if (!last) return;
    const result = last.answer.result || {};
    const layer = svg("g", { class: "answer-geometry" }, root);
    if (last.kind === "flanking" && Array.isArray(result.threatened)) {
      for (const t of result.threatened) {
        if (!t || t.creature !== el.attacker.value || !Array.isArray(t.squares)) continue;
        for (const q of t.squares) svg("rect", { x: q.x * s, y: q.y * s, width: s, height: s, class: "threat" }, layer);
      }
    }
    if (last.kind === "flanking" && Array.isArray(result.flankers)) {
      for (const f of result.flankers) {
        if (!f || !isObject(f.attacker_square) || !isObject(f.helper_square)) continue;
        const a = f.attacker_square, b = f.helper_square;
        svg("line", { x1: (a.x + 0.5) * s, y1: (a.y + 0.5) * s, x2: (b.x + 0.5) * s, y2: (b.y + 0.5) * s, class: "ray ray-clear" }, layer)
          .appendChild(title(`flanks with ${f.creature}`));
      }
    }
    if (Array.isArray(result.lines)) {
      for (const line of result.lines) {
        if (!line || !isObject(line.from) || !isObject(line.to)) continue;
        const blocked = line.blocked === true || line.concealed === true;
        svg("line", { x1: line.from.x * s, y1: line.from.y * s, x2: line.to.x * s, y2: line.to.y * s, class: `ray ${blocked ? "ray-blocked" : "ray-clear"}` }, layer);
      }
    }
    if (last.kind === "cover" && el.attackKind.value === "area") {
      svg("circle", { cx: Number(el.originX.value) * s, cy: Number(el.originY.value) * s, r: 4, class: "origin" }, layer)
        .appendChild(title("area origin"));
    }
  }

  function drawCreatures(root, s) {
    const layer = svg("g", { class: "creatures" }, root);
    const sides = [...new Set(creatures().map((c) => c.side))];
    const attackerSide = (creatures().find((c) => c.id === el.attacker.value) || {}).side;
    creatures().forEach((c, i) => {
      if (!isObject(c.at)) return;
      const n = side(c);
      const role = c.id === el.attacker.value ? "attacker" : c.id === el.target.value ? "target" : "";
      const team = c.side === attackerSide ? "party" : sides.length > 1 ? "foe" : "other";
      const g = svg("g", {
        class: `token ${team} ${role}`.trim(), tabindex: 0, role: "button", "data-id": c.id, "data-index": i,
        transform: `translate(${c.at.x * s} ${c.at.y * s})`,
        "aria-label": `${c.id}${role ? ` (${role})` : ""}, side ${c.side}, at ${c.at.x}, ${c.at.y}${n > 1 ? `, ${n} by ${n} squares` : ""}`,
      }, layer);
      svg("rect", { x: 2, y: 2, width: n * s - 4, height: n * s - 4, rx: Math.min(10, s / 3), class: "shape" }, g);
      svg("rect", { x: -1, y: -1, width: n * s + 2, height: n * s + 2, rx: Math.min(10, s / 3), class: "ring" }, g);
      g.appendChild(title(c.id));
      if (role) svg("text", { x: n * s / 2, y: Math.min(n * s / 2 + 4, 16), "text-anchor": "middle", class: "role" }, g).textContent = role === "attacker" ? "A" : "T";
      // The name inside its own space, cut to fit, so that neighbours' names never merge; the
      // whole id is in the tooltip and the accessible name.
      const fits = Math.floor((n * s - 6) / 6.5);
      if (fits >= 3) {
        const id = String(c.id);
        const label = id.length > fits ? `${id.slice(0, fits - 1)}…` : id;
        svg("text", { x: n * s / 2, y: n * s - 6, "text-anchor": "middle", class: "name" }, g).textContent = label;
      }
      g.addEventListener("pointerdown", (e) => startDrag(e, g, c, s));
      g.addEventListener("keydown", (e) => keyMove(e, c));
      g.addEventListener("focus", () => { state.focused = c.id; });
    });
  }

  function title(text) {
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = text;
    return t;
  }

  /** Moves a creature to a square, kept inside the grid; asks again when it moved. */
  function moveTo(c, x, y) {
    const { w, h } = gridSize();
    const n = side(c);
    const nx = Math.max(0, Math.min(w - n, x)), ny = Math.max(0, Math.min(h - n, y));
    if (c.at.x === nx && c.at.y === ny) return false;
    c.at = { x: nx, y: ny };
    el.boardStatus.textContent = `${c.id} moved to ${nx}, ${ny}`;
    state.lastAnswer = null;
    el.json.value = JSON.stringify(questionOrEncounter(), null, 2);
    return true;
  }

  /** The question as it stands, for the JSON box (the encounter alone when it is incomplete). */
  function questionOrEncounter() {
    try {
      return question();
    } catch {
      return { encounter: state.encounter };
    }
  }

  function keyMove(e, c) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key in steps) {
      e.preventDefault();
      state.focused = c.id;
      const [dx, dy] = steps[e.key];
      if (moveTo(c, c.at.x + dx, c.at.y + dy)) {
        render();
        schedule();
      }
    } else if (e.key === "a" || e.key === "A" || e.key === "t" || e.key === "T") {
      e.preventDefault();
      state.focused = c.id;
      const select = e.key.toLowerCase() === "a" ? el.attacker : el.target;
      select.value = c.id;
      el.boardStatus.textContent = `${c.id} is the ${select === el.attacker ? "attacker" : "target"}`;
      render();
      schedule();
    }
  }

  function startDrag(e, g, c, s) {
    if (e.button !== 0) return;
    e.preventDefault();
    const root = g.ownerSVGElement;
    const toGrid = (ev) => {
      const p = root.createSVGPoint();
      p.x = ev.clientX;
      p.y = ev.clientY;
      const q = p.matrixTransform(root.getScreenCTM().inverse());
      return { x: q.x / s, y: q.y / s };
    };
    const start = toGrid(e);
    const grab = { x: start.x - c.at.x, y: start.y - c.at.y };
    state.focused = c.id;
    g.focus({ preventScroll: true });
    g.classList.add("dragging");
    state.dragging = true;
    g.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const p = toGrid(ev);
      const x = Math.round(p.x - grab.x), y = Math.round(p.y - grab.y);
      if (moveTo(c, x, y)) {
        g.setAttribute("transform", `translate(${c.at.x * s} ${c.at.y * s})`);
        schedule();
      }
    };
    const end = () => {
      g.removeEventListener("pointermove", move);
      g.removeEventListener("pointerup", end);
      g.removeEventListener("pointercancel", end);
      g.classList.remove("dragging");
      state.dragging = false;
      render();
    };
    g.addEventListener("pointermove", move);
    g.addEventListener("pointerup", end);
    g.addEventListener("pointercancel", end);
  }

  // ------------------------------------------------------------------ map files
  const UVTT_EXTENSIONS = ["uvtt", "dd2vtt", "df2vtt"];

  /** What a file is and the body to send for it: a Universal VTT file goes as it is, a Foundry
   * request (`{scene, ruleset?, creatures?}`) too, a bare scene export wrapped as `{scene}`. */
  function importRequest(name, text) {
    const ext = (name.split(".").pop() || "").toLowerCase();
    const chosen = el.format.value;
    if (chosen === "uvtt" || (chosen === "auto" && UVTT_EXTENSIONS.includes(ext))) return { format: "uvtt", body: text, what: "Universal VTT file" };
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(`${name} is not JSON: ${e.message}`);
    }
    if (!isObject(value)) throw new Error(`${name} is not a JSON object`);
    if (chosen === "auto" && isObject(value.resolution) && ("line_of_sight" in value || "format" in value)) {
      return { format: "uvtt", body: text, what: "Universal VTT file" };
    }
    if (isObject(value.scene)) return { format: "foundry", body: text, what: "Foundry import request" };
    // A bare scene carries no ruleset: the current encounter's, else the route's default.
    const wrapped = { scene: value };
    const ruleset = state.encounter && state.encounter.ruleset;
    if (ruleset) wrapped.ruleset = ruleset;
    return { format: "foundry", body: JSON.stringify(wrapped), what: `Foundry scene${ruleset ? ` (as ${ruleset})` : ""}` };
  }

  async function importFile(file) {
    let text, req;
    try {
      text = await file.text();
      req = importRequest(file.name, text);
    } catch (e) {
      setLoadStatus([["error", `Not imported: ${e.message}`]]);
      return;
    }
    const route = `POST /v1/import/${req.format}`;
    setLoadStatus([["", `Importing ${file.name} (${req.what}) with ${route}…`]]);
    let res;
    try {
      res = await fetch(`v1/import/${req.format}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang() },
        body: req.body,
      });
    } catch (e) {
      setLoadStatus([["error", `the server could not be reached: ${e.message}`]]);
      return;
    }
    const answer = await readAnswer(res);
    if (!res.ok) {
      const errors = Array.isArray(answer.errors) ? answer.errors : [];
      setLoadStatus([["error", `${file.name} not imported: ${route} answered ${res.status}, ${answer.title || "a problem"}${answer.detail ? ` (${answer.detail})` : ""}`]],
        errors.map((e) => ({ cls: "error", pointer: e.pointer || "/", text: e.detail || "" })));
      return;
    }
    const warnings = (Array.isArray(answer.warnings) ? answer.warnings : [])
      .map((w) => ({ cls: "warn", code: String(w.code || ""), pointer: String(w.pointer || "/"), text: String(w.message || "") }));
    let imported;
    try {
      imported = mergeImported(answer);
      load(imported.question, null);
      el.example.value = "";
      visibility();
    } catch (e) {
      setLoadStatus([["error", `the import's answer could not be used: ${e.message}`]]);
      return;
    }
    const { w, h } = gridSize();
    const lines = [["", `Imported ${file.name}: a ${w} × ${h} grid, ${creatures().length} creature(s)${imported.replaced ? " (the scene's)" : " (kept from the encounter)"}.`],
      ...imported.moved.map((m) => ["warn", m])];
    if (creatures().length < 2) lines.push(["", "Add creatures below (or in the JSON) to ask a question."]);
    setLoadStatus(lines, warnings);
  }

  /** An import's answer as a question: a Foundry scene brings its encounter, a Universal VTT
   * file a grid that replaces the current one; a creature kept that no longer fits is moved
   * inside, and `moved` says so. */
  function mergeImported(answer) {
    const moved = [];
    if (isObject(answer.encounter)) {
      return { question: { encounter: clone(answer.encounter) }, replaced: true, moved };
    }
    if (!isObject(answer.grid)) throw new Error("it has neither an encounter nor a grid");
    const base = state.encounter ? clone(state.encounter) : { ruleset: "dnd5e2014", creatures: [] };
    const encounter = Object.assign(base, { grid: clone(answer.grid) });
    const w = Number(encounter.grid.width) || 1, h = Number(encounter.grid.height) || 1;
    for (const c of encounter.creatures || []) {
      if (!isObject(c.at)) continue;
      const n = side(c);
      const at = { x: Math.max(0, Math.min(c.at.x, w - n)), y: Math.max(0, Math.min(c.at.y, h - n)) };
      if (at.x !== c.at.x || at.y !== c.at.y) {
        moved.push(`${c.id} did not fit the new ${w} × ${h} grid at (${c.at.x}, ${c.at.y}): moved to (${at.x}, ${at.y}).`);
        c.at = at;
      }
    }
    return { question: { encounter, attacker: el.attacker.value, target: el.target.value }, replaced: false, moved };
  }

  /** Adds a creature of the form to the encounter (a grid imported alone has none). */
  function addCreature() {
    const id = el.newId.value.trim();
    const x = Number(el.newX.value), y = Number(el.newY.value);
    if (!state.encounter) {
      setLoadStatus([["error", "Load an encounter or a map first."]]);
      return;
    }
    if (!id || creatures().some((c) => String(c.id) === id)) {
      setLoadStatus([["error", id ? `There is already a creature “${id}”.` : "Give the creature an id."]]);
      return;
    }
    if (!Number.isInteger(x) || !Number.isInteger(y)) {
      setLoadStatus([["error", "A creature stands on a square: whole x and y."]]);
      return;
    }
    if (!Array.isArray(state.encounter.creatures)) state.encounter.creatures = [];
    const c = { id, side: el.newSide.value, at: { x, y } };
    if (el.newSize.value !== "medium") c.size = el.newSize.value;
    state.encounter.creatures.push(c);
    const wanted = { attacker: el.attacker.value, target: el.target.value };
    fillCreatureChoices(wanted.attacker, wanted.target);
    state.lastAnswer = null;
    el.json.value = JSON.stringify(questionOrEncounter(), null, 2);
    setLoadStatus([["", `Added ${id} (${c.side}) at (${x}, ${y}).`]]);
    render();
    schedule();
  }

  // ------------------------------------------------------------------ wiring
  /** The page's own labels in the chosen language: each `data-fr` element keeps its English
   * text in `data-en` the first time. */
  function applyLanguage() {
    const fr = lang() === "fr";
    document.documentElement.lang = lang();
    for (const node of document.querySelectorAll("[data-fr]")) {
      if (node.dataset.en === undefined) node.dataset.en = node.textContent;
      node.textContent = fr ? node.dataset.fr : node.dataset.en;
    }
  }

  function visibility() {
    const kind = el.kind.value;
    const area = kind === "cover" && el.attackKind.value === "area";
    for (const node of document.querySelectorAll("[data-for]")) {
      const wants = node.dataset.for.split(" ");
      node.hidden = !(wants.includes(kind) || (area && wants.includes("area")));
    }
  }

  function start() {
    el.example.replaceChildren(make("option", { value: "", "data-fr": "choisir un exemple…" }, "choose an example…"),
      ...EXAMPLES.map((x) => make("option", { value: x.id }, x.name)));
    el.example.addEventListener("change", () => {
      const x = EXAMPLES.find((e) => e.id === el.example.value);
      if (!x) return;
      load(clone(x.body), x.kind);
      visibility();
      setLoadStatus([["", `Loaded the example “${x.name}”.`]]);
    });
    el.apply.addEventListener("click", () => {
      try {
        load(JSON.parse(el.json.value), null);
        visibility();
        setLoadStatus([["", "Loaded the JSON."]]);
      } catch (e) {
        setLoadStatus([["error", `Not loaded: ${e.message}`]]);
      }
    });
    el.file.addEventListener("change", () => {
      const file = el.file.files && el.file.files[0];
      // Emptied, so that choosing the same file again (edited) imports it again.
      if (file) importFile(file).finally(() => { el.file.value = ""; });
    });
    el.add.addEventListener("click", addCreature);
    for (const node of [el.kind, el.attacker, el.target, el.lang, el.attackKind]) {
      node.addEventListener("change", () => {
        visibility();
        render();
        schedule();
      });
    }
    for (const node of [el.originX, el.originY, el.weapon]) node.addEventListener("input", schedule);
    el.lang.addEventListener("change", applyLanguage);
    applyLanguage();
    visibility();
  }

  start();
})();
