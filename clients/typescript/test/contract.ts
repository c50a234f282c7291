/**
 * The OpenAPI document as a validator: every answer is checked against the schema the document
 * declares for its path, method, status and media type, and every example in the document
 * against the schema it illustrates. OpenAPI 3.1 schemas are JSON Schema 2020-12, so ajv's
 * 2020 build reads them; the whole document is added as one schema (`openapi.json`) so that
 * `#/components/schemas/X` references resolve inside it.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/** ajv-formats is CommonJS: under NodeNext its default import is the module object. */
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A JSON value, as `JSON.parse` returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The HTTP methods an OpenAPI path item can hold. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The id the document is registered under in ajv. */
const DOC_ID = "openapi.json";

/**
 * Words ajv's strict mode must know, declared as annotations (they validate nothing): the
 * keywords OpenAPI's schema dialect adds to JSON Schema 2020-12, and the fixed fields of the
 * OpenAPI object itself, since the document is registered whole (its root is compiled too).
 */
const OPENAPI_KEYWORDS = [
  // schema object (OpenAPI 3.1 §4.8.24)
  "discriminator",
  "example",
  "xml",
  "externalDocs",
  // OpenAPI object (§4.8.1)
  "openapi",
  "info",
  "jsonSchemaDialect",
  "servers",
  "paths",
  "webhooks",
  "components",
  "security",
  "tags",
];

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One segment of a JSON pointer (RFC 6901), URI-encoded for use in a `$ref` fragment. */
function segment(key: string | number): string {
  return encodeURIComponent(String(key).replace(/~/g, "~0").replace(/\//g, "~1"));
}

/** Whether a media type carries JSON (`application/json`, `application/problem+json`...). */
export function isJsonMedia(media: string): boolean {
  const base = media.split(";")[0]!.trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json");
}

/** An example found in the document, with the schema (a `$ref` fragment) it must satisfy. */
export interface Example {
  where: string;
  schemaPointer: string;
  value: Json;
}

/** The OpenAPI document, loaded once, with its ajv validators. */
export class Contract {
  readonly doc: JsonObject;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(path: string) {
    this.doc = JSON.parse(readFileSync(path, "utf8")) as JsonObject;
    // strict stays on (unknown keywords and formats are errors), with OpenAPI's own
    // annotation keywords declared; `allowUnionTypes` for `"type": ["integer", "null"]`.
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    for (const keyword of OPENAPI_KEYWORDS) this.ajv.addKeyword({ keyword });
    // Registered whole, so that `#/components/schemas/X` resolves inside it; not checked
    // against the JSON Schema meta-schema, as the document is not a schema.
    this.ajv.addSchema(this.doc, DOC_ID, undefined, false);
  }

  /** Every `METHOD path` of the document, e.g. `post /v1/cover`. */
  endpoints(): Set<string> {
    const out = new Set<string>();
    for (const [path, item] of Object.entries(this.paths())) {
      if (!isObject(item)) continue;
      for (const method of METHODS) if (isObject(item[method])) out.add(`${method} ${path}`);
    }
    return out;
  }

  /** The operation object of `method path`. */
  operation(method: string, path: string): JsonObject | undefined {
    const item = this.paths()[path];
    const op = isObject(item) ? item[method.toLowerCase()] : undefined;
    return isObject(op) ? op : undefined;
  }

  /**
   * Checks an answer: its status and media type must be declared for the operation, and a
   * JSON body must satisfy the declared schema. Returns the problems found (none when valid).
   */
  checkAnswer(method: string, path: string, status: number, contentType: string | null, body: string): string[] {
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    const op = this.operation(method, path);
    if (!op) return [`${where}: the document has no such operation`];
    const responses = op["responses"];
    if (!isObject(responses)) return [`${where}: the operation declares no responses`];
    const statusKey = String(status);
    const declared =
      responses[statusKey] !== undefined ? statusKey : responses["default"] !== undefined ? "default" : undefined;
    if (declared === undefined)
      return [`${where}: status ${status} is not declared (declared: ${Object.keys(responses).join(", ")})`];
    const response = this.deref(responses[declared]);
    const content = isObject(response) ? response["content"] : undefined;
    if (!isObject(content)) return body === "" ? [] : [`${where}: a body where the document declares none`];
    if (contentType === null) return [`${where}: no Content-Type (declared: ${Object.keys(content).join(", ")})`];
    const media = this.matchMedia(Object.keys(content), contentType);
    if (media === undefined)
      return [`${where}: Content-Type ${contentType} is not declared (declared: ${Object.keys(content).join(", ")})`];
    const pointer = `/paths/${segment(path)}/${segment(method.toLowerCase())}/responses/${segment(declared)}/content/${segment(media)}/schema`;
    let value: Json;
    if (isJsonMedia(media)) {
      try {
        value = JSON.parse(body) as Json;
      } catch (e) {
        return [`${where}: ${media} body is not JSON: ${String(e)}`];
      }
    } else {
      value = body;
    }
    return this.check(pointer, value, `${where} ${media}`);
  }

  /** Checks `value` against the schema at `pointer` (a fragment of the document). */
  check(pointer: string, value: Json, where: string): string[] {
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (e) =>
          `${where}: ${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)} (schema ${e.schemaPath})`,
      );
  }

  /** Checks a value against a named component schema (`Problem`, `CoverResponse`...). */
  checkComponent(name: string, value: Json, where: string): string[] {
    return this.check(`/components/schemas/${segment(name)}`, value, where);
  }

  /**
   * Every example in the document, each with the schema it illustrates: a schema's `example`
   * and `examples`, and a media type's or parameter's `example` and `examples` (Example
   * objects, `$ref`s resolved).
   */
  examples(): Example[] {
    const found: Example[] = [];
    const components = this.doc["components"];
    const schemas = isObject(components) ? components["schemas"] : undefined;
    if (isObject(schemas)) {
      for (const [name, schema] of Object.entries(schemas))
        this.schemaExamples(schema, `/components/schemas/${segment(name)}`, found);
    }
    for (const [path, item] of Object.entries(this.paths())) {
      if (!isObject(item)) continue;
      const itemPointer = `/paths/${segment(path)}`;
      this.parameterExamples(item["parameters"], `${itemPointer}/parameters`, found);
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op)) continue;
        const opPointer = `${itemPointer}/${method}`;
        this.parameterExamples(op["parameters"], `${opPointer}/parameters`, found);
        const body = this.deref(op["requestBody"]);
        if (isObject(body)) this.contentExamples(body["content"], `${opPointer}/requestBody/content`, found);
        const responses = op["responses"];
        if (!isObject(responses)) continue;
        for (const [status, response] of Object.entries(responses)) {
          const r = this.deref(response);
          if (isObject(r))
            this.contentExamples(r["content"], `${opPointer}/responses/${segment(status)}/content`, found);
        }
      }
    }
    return found;
  }

  /** The request examples of `method path`'s JSON body, media type's first, then its schema's. */
  requestExamples(method: string, path: string): Json[] {
    const prefix = `/paths/${segment(path)}/${segment(method.toLowerCase())}/requestBody/`;
    const direct = this.examples().filter((e) => e.schemaPointer.startsWith(prefix));
    const body = this.deref(this.operation(method, path)?.["requestBody"]);
    const content = isObject(body) ? body["content"] : undefined;
    const schema =
      isObject(content) && isObject(content["application/json"])
        ? this.deref(content["application/json"]["schema"])
        : undefined;
    const fromSchema: Json[] = [];
    if (isObject(schema)) {
      if (schema["example"] !== undefined) fromSchema.push(schema["example"]);
      if (Array.isArray(schema["examples"])) fromSchema.push(...schema["examples"]);
    }
    return [...direct.map((e) => e.value), ...fromSchema];
  }

  private paths(): JsonObject {
    const paths = this.doc["paths"];
    return isObject(paths) ? paths : {};
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** Follows an OpenAPI `$ref` (`#/components/...`) inside the document. */
  private deref(node: Json | undefined): Json | undefined {
    let current = node;
    for (let hops = 0; isObject(current) && typeof current["$ref"] === "string" && hops < 16; hops++) {
      const ref = current["$ref"];
      if (!ref.startsWith("#/")) return current;
      current = ref
        .slice(2)
        .split("/")
        .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce<Json | undefined>(
          (at, key) => (isObject(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined),
          this.doc,
        );
    }
    return current;
  }

  /** The declared media type an answer's Content-Type matches: exactly, else by its base type. */
  private matchMedia(declared: string[], contentType: string): string | undefined {
    const norm = (m: string) => m.replace(/\s+/g, "").toLowerCase();
    const base = (m: string) => norm(m).split(";")[0]!;
    return declared.find((m) => norm(m) === norm(contentType)) ?? declared.find((m) => base(m) === base(contentType));
  }

  private schemaExamples(schema: Json | undefined, pointer: string, found: Example[]): void {
    if (!isObject(schema)) return;
    if (schema["example"] !== undefined)
      found.push({ where: `${pointer}/example`, schemaPointer: pointer, value: schema["example"] });
    const examples = schema["examples"];
    if (Array.isArray(examples)) {
      examples.forEach((value, i) => found.push({ where: `${pointer}/examples/${i}`, schemaPointer: pointer, value }));
    }
    for (const key of ["properties", "patternProperties", "$defs", "dependentSchemas"]) {
      const map = schema[key];
      if (isObject(map))
        for (const [name, sub] of Object.entries(map))
          this.schemaExamples(sub, `${pointer}/${key}/${segment(name)}`, found);
    }
    for (const key of [
      "items",
      "additionalProperties",
      "not",
      "if",
      "then",
      "else",
      "contains",
      "propertyNames",
      "unevaluatedItems",
      "unevaluatedProperties",
    ]) {
      this.schemaExamples(schema[key], `${pointer}/${key}`, found);
    }
    for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((sub, i) => this.schemaExamples(sub, `${pointer}/${key}/${i}`, found));
    }
  }

  /** `example` / `examples` of a media type or parameter object, checked against its `schema`. */
  private holderExamples(holder: JsonObject, pointer: string, found: Example[]): void {
    const schemaPointer = `${pointer}/schema`;
    if (holder["example"] !== undefined)
      found.push({ where: `${pointer}/example`, schemaPointer, value: holder["example"] });
    const examples = holder["examples"];
    if (isObject(examples)) {
      for (const [name, example] of Object.entries(examples)) {
        const resolved = this.deref(example);
        if (isObject(resolved) && resolved["value"] !== undefined) {
          found.push({ where: `${pointer}/examples/${segment(name)}`, schemaPointer, value: resolved["value"] });
        }
      }
    }
    this.schemaExamples(holder["schema"], schemaPointer, found);
  }

  private contentExamples(content: Json | undefined, pointer: string, found: Example[]): void {
    if (!isObject(content)) return;
    for (const [media, holder] of Object.entries(content)) {
      if (isObject(holder)) this.holderExamples(holder, `${pointer}/${segment(media)}`, found);
    }
  }

  private parameterExamples(parameters: Json | undefined, pointer: string, found: Example[]): void {
    if (!Array.isArray(parameters)) return;
    parameters.forEach((p, i) => {
      const resolved = this.deref(p);
      if (isObject(resolved)) this.holderExamples(resolved, `${pointer}/${i}`, found);
    });
  }
}
